"""Coordinate MLP (Fourier features) fitting a procedural 2-D field, launched with
torch.multiprocessing.spawn.  Python logging with timestamps.  Healthy run."""
import argparse
import datetime
import logging
import math
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def field(xy):
    x, y = xy[:, 0], xy[:, 1]
    return (torch.sin(6 * x) * torch.cos(4 * y) + 0.5 * torch.sin(10 * (x + y))).unsqueeze(1)


class FourierMLP(nn.Module):
    def __init__(self, n_freq=16, width=64):
        super().__init__()
        self.register_buffer("B", torch.randn(2, n_freq) * 3.0)
        self.net = nn.Sequential(nn.Linear(2 * n_freq, width), nn.ReLU(),
                                 nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1))
        for m in self.net:
            if isinstance(m, nn.Linear):
                nn.init.kaiming_normal(m.weight)

    def forward(self, xy):
        proj = 2 * math.pi * xy @ self.B
        return self.net(torch.cat([proj.sin(), proj.cos()], dim=1))


def worker(rank, world, port, epochs):
    torch.set_num_threads(1)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format=f"%(asctime)s [%(levelname)s] [proc {rank}] %(name)s: %(message)s")
    log = logging.getLogger("coordmlp")
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    lin = torch.linspace(-1, 1, 48)
    gx, gy = torch.meshgrid(lin, lin)
    xy = torch.stack([gx.flatten(), gy.flatten()], dim=1)
    ds = TensorDataset(xy, field(xy))
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=0)
    dl = DataLoader(ds, batch_size=64, sampler=sampler, num_workers=3, persistent_workers=True)
    model = DDP(FourierMLP())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        tot, n = 0.0, 0
        for xb, yb in dl:
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * xb.size(0); n += xb.size(0)
        sched.step(epoch + 1)
        t = torch.tensor([tot, n], dtype=torch.float64)
        dist.all_reduce(t)
        if rank == 0:
            log.info("epoch %d/%d mse %.5f lr %.2e", epoch + 1, epochs, (t[0] / t[1]).item(), opt.param_groups[0]["lr"])
    if rank == 0:
        torch.save(model.module.state_dict(), "coord_mlp.pt")
        log.info("saved coord_mlp.pt")
    dist.barrier()
    dist.destroy_process_group()
    log.info("finished")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=29950)
    ap.add_argument("--epochs", type=int, default=6)
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world, a.port, a.epochs), nprocs=a.world, join=True)
    print("all processes joined", flush=True)
