"""Tabular regressor with DDP; per-worker overrides are merged into the defaults."""
import json
import logging
import os
import sys

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything, fake_compute

logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s %(levelname)-7s %(name)s | %(message)s")
log = logging.getLogger("tabreg")


def main():
    rank, world = init_distributed(timeout_s=20)
    local_rank = int(os.environ["LOCAL_RANK"])
    seed_everything(0)
    cfg = json.load(open("worker_overrides.json"))
    conf = dict(cfg["defaults"])
    conf.update(cfg["workers"].get(str(local_rank), {}))
    print(f"worker {rank}: config {conf}", flush=True)
    log.info("building model (hidden=256, depth=3)")
    model = nn.Sequential(nn.Linear(24, 256), nn.SiLU(), nn.Linear(256, 256), nn.SiLU(), nn.Linear(256, 1))
    device = torch.device(conf["device"])
    model = model.to(device)
    model = DDP(model)
    log.info("DDP ready, %d workers", world)
    opt = torch.optim.Adam(model.parameters(), lr=conf["lr"])
    g = torch.Generator().manual_seed(rank)
    for step in range(60):
        xb = torch.randn(conf["batch_size"], 24, generator=g).to(device)
        yb = xb[:, :4].sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        fake_compute(0.03)
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
            if rank == 0:
                log.info("step %d mse %.4f", step, loss.item())
    log.info("finished")


if __name__ == "__main__":
    main()
