"""Two-stage regressor with a per-rank input adapter (each rank reads a different sensor
group), trained with torch.multiprocessing.spawn and hand-averaged gradients of the shared trunk."""
import argparse
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, in_dim, width=64):
        super().__init__()
        self.adapter = nn.Linear(in_dim, width)
        self.trunk = nn.Sequential(nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1))

    def forward(self, x):
        return self.trunk(self.adapter(x))


def worker(rank, world, args):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(args.port)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=12))
    in_dims = [int(v) for v in args.sensor_dims.split(",")]
    feats = [int(v) for v in args.feature_counts.split(",")]
    print(f"worker {rank}: sensor group {rank} has {feats[rank]} features, adapter in_dim={in_dims[rank]}")
    torch.manual_seed(rank)
    net = Net(in_dims[rank])
    for p in net.trunk.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(40):
        x = torch.randn(16, feats[rank])
        y = x.sum(dim=1, keepdim=True)
        loss = nn.functional.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        for p in net.trunk.parameters():
            dist.all_reduce(p.grad)
            p.grad /= world
        opt.step()
        if step % 10 == 0:
            print(f"worker {rank}: step {step} mse {loss.item():.3f}")
        time.sleep(0.05)
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=29500)
    ap.add_argument("--sensor-dims", required=True)
    ap.add_argument("--feature-counts", required=True)
    args = ap.parse_args()
    print(f"spawning {args.world} workers")
    mp.spawn(worker, args=(args.world, args), nprocs=args.world, join=True)
