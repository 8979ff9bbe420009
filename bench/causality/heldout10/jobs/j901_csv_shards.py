import os
import sys
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, seed_everything, all_reduce_mean, fake_compute


def read_rows(path):
    with open(path) as f:
        header = next(f).strip().split(",")
        for lineno, line in enumerate(f, start=2):
            yield [float(v) for v in line.strip().split(",")]


def batches(path, bs):
    buf = []
    for row in read_rows(path):
        buf.append(row)
        if len(buf) == bs:
            t = torch.tensor(buf)
            yield t[:, :-1], t[:, -1].long()
            buf = []


def main():
    rank, world = init_distributed(timeout_s=12)
    seed_everything(0)
    path = f"data/train-{rank:05d}-of-{world:05d}.csv"
    print(f"loading shard {path}", flush=True)
    model = DDP(TinyMLP())
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    step = 0
    for epoch in range(2):
        for x, y in batches(path, 16):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            fake_compute(0.1)
            step += 1
            if step % 5 == 0:
                l = all_reduce_mean(loss.item())
                if rank == 0:
                    print(f"epoch {epoch} step {step} loss {l:.4f}", flush=True)
    if rank == 0:
        torch.save(model.module.state_dict(), "final.pt")
        print("done", flush=True)


if __name__ == "__main__":
    main()
