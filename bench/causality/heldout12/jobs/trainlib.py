"""Small shared helpers for the toy distributed training jobs.

Every job copies this file next to itself as trainlib.py (see run.sh).
"""
import os
import time
import math
import random
from datetime import timedelta

import torch
import torch.nn as nn
import torch.distributed as dist


def env_int(name, default=None):
    v = os.environ.get(name)
    if v is None:
        if default is None:
            raise KeyError(name)
        return default
    return int(v)


def init_distributed(timeout_s=10, backend="gloo"):
    # works under minilaunch/torchrun-style env and under srun
    rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "-1")))
    world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "-1")))
    dist.init_process_group(backend, rank=rank, world_size=world,
                            timeout=timedelta(seconds=timeout_s))
    return dist.get_rank(), dist.get_world_size()


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)


class TinyMLP(nn.Module):
    def __init__(self, d_in=16, d_hidden=32, d_out=4, dropout=0.0):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.act = nn.GELU()
        self.drop = nn.Dropout(dropout)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(self.drop(self.act(self.fc1(x))))


class SyntheticDataset(torch.utils.data.Dataset):
    def __init__(self, n=256, d_in=16, n_classes=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, d_in, generator=g)
        w = torch.randn(d_in, n_classes, generator=g)
        self.y = (self.x @ w).argmax(dim=1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
            p.grad /= world


def all_reduce_mean(value):
    t = torch.tensor([float(value)])
    dist.all_reduce(t)
    return t.item() / dist.get_world_size()


def fake_compute(seconds=0.05):
    # stand-in for a real forward/backward on a bigger model
    time.sleep(seconds)


class Meter:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, v, n=1):
        self.total += v * n
        self.count += n

    @property
    def avg(self):
        return self.total / self.count
