"""Tabular regression with a loss guard; rows come from a per-rank CSV part read in
chunks.  Any exception is logged with logging.exception and the worker exits 1."""
import csv
import logging
import math
import os
import sys
import time

import torch
import torch.nn as nn

from trainlib import init_distributed, average_gradients

RANK = int(os.environ.get("RANK", "0"))
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"%(asctime)s.%(msecs)03d r{RANK} %(levelname)s %(message)s",
                    datefmt="%H:%M:%S")
log = logging.getLogger("housing")


# parts known to sit on the slow volume (rank -> first slow chunk)
SLOW = {1: 14}


class NonFiniteLossError(RuntimeError):
    pass


def chunks(path, size=16, slow_from=None):
    with open(path) as f:
        rows = list(csv.reader(f))
    for i in range(0, len(rows), size):
        if slow_from is not None and i // size >= slow_from:
            time.sleep(0.9)          # this part lives on a slow volume past its first blocks
        part = rows[i:i + size]
        yield (torch.tensor([[float(v) for v in r[:-1]] for r in part]),
               torch.tensor([float(r[-1]) for r in part]))


def main():
    rank, world = init_distributed(timeout_s=12)
    log.info("started, world=%d", world)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    try:
        for step, (x, y) in enumerate(chunks(f"parts/part-{rank}.csv", slow_from=SLOW.get(rank))):
            time.sleep(0.05)
            loss = nn.functional.smooth_l1_loss(model(x).squeeze(1), y)
            if not math.isfinite(loss.item()):
                raise NonFiniteLossError(f"non-finite loss {loss.item()} at step {step}; "
                                         f"inputs contain {int(torch.isnan(x).sum())} NaNs")
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            if step % 4 == 0:
                log.info("step %d loss %.4f", step, loss.item())
    except Exception:
        log.exception("training failed")
        sys.exit(1)
    log.info("done")


if __name__ == "__main__":
    main()
