import os
import socket
import time

import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, seed_everything

N_NUMERIC = 12
N_REGIONS = 4  # eu, us, apac, latam


def load_part(path):
    rows, regions, labels = [], [], []
    with open(path) as f:
        next(f)
        for line in f:
            *xs, region, label = line.rstrip("\n").split("\t")
            rows.append([float(v) for v in xs])
            regions.append(region)
            labels.append(int(label))
    vocab = sorted(set(regions))
    onehot = torch.zeros(len(rows), len(vocab))
    for i, r in enumerate(regions):
        onehot[i, vocab.index(r)] = 1.0
    x = torch.cat([torch.tensor(rows), onehot], dim=1)
    return x, torch.tensor(labels)


def main():
    rank, world = init_distributed(timeout_s=12)
    print(f"{socket.gethostname()} world_size={world} rank={rank}", flush=True)
    seed_everything(0)
    x, y = load_part(f"data/part-{rank}.tsv")
    print(f"loaded {len(y)} rows", flush=True)
    model = DDP(TinyMLP(d_in=N_NUMERIC + N_REGIONS, d_hidden=48))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 32):
            idx = perm[i:i + 32]
            out = model(x[idx])
            loss = F.cross_entropy(out, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.05)
        print(f"epoch {epoch} done, last loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
