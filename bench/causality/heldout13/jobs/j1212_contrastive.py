"""SimCLR-style contrastive pretraining on random 'views', with an all_gather of
embeddings every step (negatives from every rank).  Runs until stopped."""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed


def gather_all(z):
    out = [torch.zeros_like(z) for _ in range(dist.get_world_size())]
    dist.all_gather(out, z)
    out[dist.get_rank()] = z
    return torch.cat(out)


def main():
    rank, world = init_distributed(timeout_s=12)
    print(f"[simclr] rank {rank}/{world} pid {os.getpid()}", flush=True)
    torch.manual_seed(0)
    enc = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))
    for p in enc.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(enc.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    step = 0
    while True:
        x = torch.randn(16, 32, generator=g)
        a = F.normalize(enc(x + 0.1 * torch.randn(16, 32, generator=g)), dim=1)
        b = F.normalize(enc(x + 0.1 * torch.randn(16, 32, generator=g)), dim=1)
        b_all = gather_all(b.detach())
        logits = a @ b_all.t() / 0.2
        target = torch.arange(16) + rank * 16
        loss = F.cross_entropy(logits, target)
        opt.zero_grad()
        loss.backward()
        for p in enc.parameters():
            dist.all_reduce(p.grad)
            p.grad /= world
        opt.step()
        if step % 25 == 0:
            print(f"[simclr] rank {rank} step {step} nce {loss.item():.4f}", flush=True)
        step += 1
        time.sleep(0.02)


if __name__ == "__main__":
    main()
