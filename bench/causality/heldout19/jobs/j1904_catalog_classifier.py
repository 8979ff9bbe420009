"""Product-category classifier over precomputed text embeddings (one .npz shard per rank),
DDP, single pod with torchrun (4 workers)."""
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

NUM_CLASSES = 12  # taxonomy v1


def main():
    rank, world, local = hx19lib.init()
    z = np.load(f"data/catalog-emb-{rank}.npz")
    x, y = torch.from_numpy(z["emb"]), torch.from_numpy(z["label"]).long()
    print(f"worker {rank}: {len(y)} products, dim {x.shape[1]}, label ids {int(y.min())}..{int(y.max())}", flush=True)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(x.shape[1], 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, NUM_CLASSES)))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    t0 = time.time()
    bs = 32
    for epoch in range(3):
        for step in range(len(y) // bs):
            xb, yb = x[step * bs:(step + 1) * bs], y[step * bs:(step + 1) * bs]
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 4 == 0:
                print(f"worker {rank}: epoch {epoch} step {step} loss {loss.item():.3f} ({time.time() - t0:.1f}s)", flush=True)
            hx19lib.pace(0.1)
    print(f"worker {rank}: done", flush=True)


if __name__ == "__main__":
    main()
