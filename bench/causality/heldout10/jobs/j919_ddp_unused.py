"""Multi-task model: a shared trunk, a classification head, and an auxiliary
regression head that is only used for batches that carry regression targets.
Only rank 1's data source has batches without regression targets."""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.cls_head = nn.Linear(64, 4)
        self.reg_head = nn.Linear(64, 1)

    def forward(self, x, want_reg=True):
        h = self.trunk(x)
        out = {"cls": self.cls_head(h)}
        if want_reg:
            out["reg"] = self.reg_head(h).squeeze(-1)
        return out


def batches(rank, n=30):
    g = torch.Generator().manual_seed(rank)
    for i in range(n):
        x = torch.randn(32, 16, generator=g)
        y = torch.randint(0, 4, (32,), generator=g)
        # source B (rank 1) has no regression labels for some of its batches
        has_reg = not (rank == 1 and i >= 9 and i % 3 == 0)
        r = torch.randn(32, generator=g) if has_reg else None
        yield x, y, r


def main():
    rank, world = init_distributed(timeout_s=10)
    model = DDP(MultiTask())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"rank {rank}: model has {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    for step, (x, y, r) in enumerate(batches(rank)):
        out = model(x, want_reg=r is not None)
        loss = F.cross_entropy(out["cls"], y)
        if r is not None:
            loss = loss + 0.5 * F.mse_loss(out["reg"], r)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.1)
        if step % 5 == 0:
            print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
    print(f"rank {rank}: done", flush=True)


if __name__ == "__main__":
    main()
