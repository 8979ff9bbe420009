"""Shared setup for the small MPI-launched gloo training jobs."""
import os
import sys
import datetime
import warnings

import torch
import torch.nn as nn
import torch.distributed as dist


def mpi_env():
    rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
    world = int(os.environ["OMPI_COMM_WORLD_SIZE"])
    local_rank = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", "0"))
    return rank, world, local_rank


def init(port):
    rank, world, local_rank = mpi_env()
    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world,
        timeout=datetime.timedelta(seconds=25),
    )
    return rank, world, local_rank


class MLP(nn.Module):
    def __init__(self, d_in=32, d_hidden=64, d_out=10):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, d_hidden), nn.ReLU(),
            nn.Linear(d_hidden, d_hidden), nn.ReLU(),
            nn.Linear(d_hidden, d_out),
        )

    def forward(self, x):
        return self.net(x)


def make_batch(gen, bs=64, d_in=32, d_out=10):
    x = torch.randn(bs, d_in, generator=gen)
    y = torch.randint(0, d_out, (bs,), generator=gen)
    return x, y
