"""Small shared helpers of held-out set 20 (gloo init, a tiny model, data files)."""
import datetime
import logging
import os
import sys

import torch
import torch.distributed as dist

TIMEOUT = datetime.timedelta(seconds=20)


def init():
    dist.init_process_group("gloo", timeout=TIMEOUT)
    return dist.get_rank(), dist.get_world_size()


def mlp(n_in, n_hidden, n_out):
    return torch.nn.Sequential(
        torch.nn.Linear(n_in, n_hidden), torch.nn.ReLU(), torch.nn.Linear(n_hidden, n_out))


def console_logger(name, fmt, level=logging.INFO, stream=None):
    log = logging.getLogger(name)
    h = logging.StreamHandler(stream or sys.stderr)
    h.setFormatter(logging.Formatter(fmt))
    log.addHandler(h)
    log.setLevel(level)
    log.propagate = False
    return log


def local_rank():
    return int(os.environ.get("LOCAL_RANK", "0"))
