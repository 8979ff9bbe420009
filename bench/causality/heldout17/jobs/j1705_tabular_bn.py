"""Tabular fraud classifier (MLP with BatchNorm1d), DDP under torchrun.  Each rank reads its
own pre-split CSV partition; DataLoader with drop_last=False, as in the original notebook."""
import csv
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

from trainlib import init_distributed, seed_everything


def read_partition(path):
    xs, ys = [], []
    with open(path) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            xs.append([float(v) for v in row[:-1]])
            ys.append(int(row[-1]))
    return TensorDataset(torch.tensor(xs), torch.tensor(ys))


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    ds = read_partition(f"data/part-{rank:03d}.csv")
    dl = DataLoader(ds, batch_size=32, shuffle=True, drop_last=False)
    print(f"rank {rank}: {len(ds)} rows, {len(dl)} batches/epoch", flush=True)
    model = DDP(nn.Sequential(nn.Linear(12, 64), nn.BatchNorm1d(64), nn.ReLU(),
                              nn.Linear(64, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        tot, n = 0.0, 0
        for i, (x, y) in enumerate(dl):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y); n += len(y)
            time.sleep(0.05)
            if i % 3 == 2:
                print(f"rank {rank} epoch {epoch} batch {i + 1}/{len(dl)} loss {loss.item():.4f}", flush=True)
        print(f"rank {rank} epoch {epoch} mean loss {tot / n:.4f}", flush=True)
    print(f"rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
