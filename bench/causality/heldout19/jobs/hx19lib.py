"""Small helpers shared by the set-19 jobs (copied next to each job as hx19lib.py)."""
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist


def dist_env():
    """rank/world/local rank from torchrun-style env, or from Slurm's when run under srun."""
    rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
    world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
    local = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0")))
    return rank, world, local


def init(timeout_s=20):
    rank, world, local = dist_env()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=timedelta(seconds=timeout_s))
    torch.set_num_threads(1)
    return dist.get_rank(), dist.get_world_size(), local


def allreduce_grads(model):
    w = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= w


def mean_across(v):
    t = torch.tensor([float(v)])
    dist.all_reduce(t)
    return t.item() / dist.get_world_size()


def pace(s=0.15):
    # stands in for the time a real step takes on a bigger model
    time.sleep(s)
