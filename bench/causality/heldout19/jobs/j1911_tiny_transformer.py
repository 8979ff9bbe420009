"""Tiny transformer encoder LM on synthetic token streams, DDP, launched with srun.
A healthy run (it is cancelled by the user in case 1911)."""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

V, T = 256, 32


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 64)
        self.pos = nn.Parameter(torch.zeros(T, 64))
        layer = nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.out = nn.Linear(64, V)

    def forward(self, x):
        mask = torch.triu(torch.full((T, T), float("-inf")), 1)
        return self.out(self.enc(self.emb(x) + self.pos, mask=mask))


def main():
    rank, world, local = hx19lib.init()
    print(f"task {rank} of {world} on {os.environ.get('SLURMD_NODENAME')}, pid {os.getpid()}", flush=True)
    g = torch.Generator().manual_seed(rank)
    torch.manual_seed(0)
    model = DDP(LM())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    t0 = time.time()
    for step in range(400):
        start = torch.randint(0, V, (8, 1), generator=g)
        x = (start + torch.arange(T + 1) * 3) % V
        loss = F.cross_entropy(model(x[:, :-1]).reshape(-1, V), x[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.3f} ({time.time() - t0:.1f}s)", flush=True)
        hx19lib.pace(0.1)
    print("done", flush=True)


if __name__ == "__main__":
    main()
