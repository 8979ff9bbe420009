#!/usr/bin/env python3
"""Multi-task regressor (main target + optional auxiliary target) under DDP."""
import datetime, os, sys, time
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

SOURCES = ["sensors_a", "sensors_b", "sensors_legacy", "sensors_c"]  # one source per rank

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU())
        self.main_head = nn.Linear(64, 1)
        self.aux_head = nn.Linear(64, 3)
    def forward(self, x, with_aux=True):
        h = self.trunk(x)
        out = {"main": self.main_head(h)}
        if with_aux:
            out["aux"] = self.aux_head(h)
        return out

def batches(src, rank):
    g = torch.Generator().manual_seed(rank)
    has_aux = src != "sensors_legacy"  # the legacy export has no auxiliary labels
    while True:
        x = torch.randn(64, 20, generator=g)
        yield x, x[:, :5].sum(1, keepdim=True), (x[:, 5:8] if has_aux else None)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank = dist.get_rank()
    src = SOURCES[rank]
    print(f"rank {rank}: data source {src}", flush=True)
    torch.manual_seed(0)
    model = DDP(Net())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    it = batches(src, rank)
    for step in range(25):
        x, y, yaux = next(it)
        out = model(x, with_aux=yaux is not None)
        loss = nn.functional.mse_loss(out["main"], y)
        if yaux is not None:
            loss = loss + 0.3 * nn.functional.mse_loss(out["aux"], yaux)
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
