"""Two 'nodes' with two ranks each. The first rank on every node writes a
preprocessed feature cache to node-local scratch so the other local rank can
mmap it. node-b's scratch disk is full (emulated with a symlink to /dev/full)."""
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients


def main():
    node = os.environ.get("NODE_NAME", socket.gethostname())
    local_rank = int(os.environ["LOCAL_RANK"])
    rank, world = init_distributed(timeout_s=12)
    print(f"{time.strftime('%H:%M:%S')} rank={rank} local_rank={local_rank} world={world}", flush=True)
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ds = SyntheticDataset(n=640, seed=rank)
    scratch = os.path.join("scratch", node)
    for step in range(40):
        x, y = ds.x[step * 16:(step + 1) * 16], ds.y[step * 16:(step + 1) * 16]
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        time.sleep(0.08)
        if step % 5 == 0 and rank == 0:
            print(f"{time.strftime('%H:%M:%S')} step {step} loss {loss.item():.4f}", flush=True)
        if step == 12:
            if local_rank == 0:
                path = os.path.join(scratch, "features.pt")
                print(f"{time.strftime('%H:%M:%S')} writing feature cache {path}", flush=True)
                feats = {"x": torch.randn(20000, 16), "y": ds.y}
                torch.save(feats, path)
            dist.barrier()
    print(f"{time.strftime('%H:%M:%S')} finished", flush=True)


if __name__ == "__main__":
    main()
