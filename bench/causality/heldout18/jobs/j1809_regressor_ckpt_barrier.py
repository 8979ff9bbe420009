"""Tabular regressor (MLP) under torchrun, DDP; checkpoints every SAVE_EVERY steps.

Rank 0 writes the checkpoint; every rank then waits at a barrier so that nobody runs ahead
of a checkpoint that might be needed for a restart.
"""
import logging
import os
import socket
import sys

import torch
import torch.nn as nn
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

SAVE_EVERY, STEPS = 10, 40
rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format=f"%(asctime)s {socket.gethostname()}:{rank} %(levelname)s %(message)s")
log = logging.getLogger("reg")

g = torch.Generator().manual_seed(rank)
X = torch.randn(STEPS * 32, 12, generator=g)
Y = X @ torch.linspace(-1, 1, 12) + 0.1 * torch.randn(len(X), generator=g)
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(12, 48), nn.SiLU(), nn.Linear(48, 1)))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
os.makedirs("ckpt", exist_ok=True)
log.info("start: %d rows, world %d", len(X), world)

for step in range(1, STEPS + 1):
    xb, yb = X[(step - 1) * 32:step * 32], Y[(step - 1) * 32:step * 32]
    loss = F.mse_loss(model(xb).squeeze(1), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    trainlib.fake_compute(0.05)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss.item())
    if step % SAVE_EVERY == 0:
        if rank == 0:
            path = f"ckpt/step-{step:06d}.pt"
            if os.path.exists(path):
                log.info("%s exists (from an earlier attempt), not re-saving", path)
                continue
            torch.save({"model": model.module.state_dict(), "step": step}, path)
            log.info("saved %s", path)
        dist.barrier()
log.info("done")
dist.destroy_process_group()
