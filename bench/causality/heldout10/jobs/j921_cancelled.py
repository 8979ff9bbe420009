import os
import signal
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients

stop_requested = False


def on_sigterm(signum, frame):
    global stop_requested
    print(f"rank {os.environ.get('SLURM_PROCID')}: got signal {signum}, will stop after this step", flush=True)
    stop_requested = True


def main():
    signal.signal(signal.SIGTERM, on_sigterm)
    rank, world = init_distributed(timeout_s=10)
    model = TinyMLP(d_hidden=64)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ds = SyntheticDataset(n=4096, seed=rank)
    print(f"rank {rank}/{world}: {len(ds)} samples", flush=True)
    step = 0
    for epoch in range(10):
        for i in range(0, len(ds), 64):
            x, y = ds.x[i:i + 64], ds.y[i:i + 64]
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            step += 1
            time.sleep(0.1)
            if rank == 0 and step % 20 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
            if stop_requested:
                if rank == 0:
                    torch.save({"model": model.state_dict(), "step": step}, "preempt.pt")
                    print(f"saved preempt.pt at step {step}", flush=True)
                sys.exit(0)


if __name__ == "__main__":
    main()
