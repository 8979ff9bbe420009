"""Tiny MLP fine-tune with DDP over gloo, launched by mpirun. One worker is
killed mid-run (planted: it sends SIGKILL to itself, as an OOM killer would)."""
import os, time
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from mpi_common import init, MLP, make_batch

STEPS = 40


def main():
    rank, world, local_rank = init(29612)
    print(f"[worker {rank}] joined process group, world={world}", flush=True)
    torch.manual_seed(0)
    model = DDP(MLP(d_hidden=96))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(7 + rank)
    cache = []
    for step in range(STEPS):
        x, y = make_batch(gen)
        if rank == 3 and step == 17:
            # planted fault: the process is killed outright (no Python traceback)
            os.kill(os.getpid(), 9)
        cache.append(x)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if step % 4 == 0:
            print(f"[worker {rank}] step {step} loss={loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
