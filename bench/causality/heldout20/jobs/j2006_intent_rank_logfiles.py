"""Intent classifier over CSV feature parts (DDP, 4 ranks) under plain torchrun.  Every
worker logs to the console and to its own file logs/worker-<host>-<pid>.log."""
import csv
import logging
import os
import socket
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

os.makedirs("logs", exist_ok=True)
log = logging.getLogger("intent")
log.setLevel(logging.INFO)
fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s")
for h in (logging.StreamHandler(sys.stderr),
          logging.FileHandler(f"logs/worker-{socket.gethostname()}-{os.getpid()}.log")):
    h.setFormatter(fmt)
    log.addHandler(h)


def batches(path, bs=32):
    """Streams the CSV part in mini-batches."""
    feats, labels = [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            feats.append([float(row[f"f{i}"]) for i in range(6)])
            labels.append(int(row["label"]))
            if len(labels) == bs:
                yield torch.tensor(feats), torch.tensor(labels)
                feats, labels = [], []


def main():
    rank, world = hx20lib.init()
    log.info("rank %d/%d (local %d) starting", rank, world, hx20lib.local_rank())
    torch.manual_seed(0)
    model = DDP(hx20lib.mlp(6, 32, 7))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    path = f"data/intents-{rank}.csv"
    for epoch in range(3):
        log.info("epoch %d: streaming %s", epoch, path)
        for step, (xb, yb) in enumerate(batches(path)):
            loss = torch.nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
            time.sleep(0.04)
        log.info("epoch %d: %d steps, loss %.4f", epoch, step + 1, loss.item())
    log.info("finished")
    dist.destroy_process_group()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed")
        raise
