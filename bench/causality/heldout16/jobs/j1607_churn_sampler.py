"""Churn classifier with DDP and a hand-rolled contiguous-block sampler (each rank takes a
contiguous block of the dataset, shuffled within the block).  Logs are JSON lines."""
import json
import logging
import math
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, Sampler

from trainlib import init_distributed, seed_everything


class JsonFormatter(logging.Formatter):
    def format(self, record):
        d = {"ts": round(record.created, 3), "level": record.levelname, "logger": record.name,
             "rank": int(os.environ.get("RANK", -1)), "msg": record.getMessage()}
        if record.exc_info:
            d["exc"] = self.formatException(record.exc_info)
        return json.dumps(d)


h = logging.StreamHandler(sys.stdout)
h.setFormatter(JsonFormatter())
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("churn")


class ChurnData(Dataset):
    def __init__(self, path):
        d = torch.load(path)
        self.x, self.y = d["x"], d["y"]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class BlockSampler(Sampler):
    """Contiguous block per rank, shuffled per epoch inside the block."""
    def __init__(self, n, rank, world, seed=0):
        self.n, self.rank, self.world, self.seed, self.epoch = n, rank, world, seed, 0
        self.per_rank = math.ceil(n / world)

    def set_epoch(self, e):
        self.epoch = e

    def __iter__(self):
        start = self.rank * self.per_rank
        block = torch.arange(start, start + self.per_rank)
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        return iter(block[torch.randperm(len(block), generator=g)].tolist())

    def __len__(self):
        return self.per_rank


def main():
    rank, world = init_distributed(timeout_s=20)
    seed_everything(21)
    ds = ChurnData("churn.pt")
    sampler = BlockSampler(len(ds), rank, world)
    dl = DataLoader(ds, batch_size=16, sampler=sampler, drop_last=True)
    log.info("dataset %d rows, %d per rank, %d batches per epoch", len(ds), len(sampler), len(dl))
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(4):
        sampler.set_epoch(epoch)
        tot, n = 0.0, 0
        for step, (x, y) in enumerate(dl):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.02)
            tot += loss.item(); n += 1
            if step % 5 == 0 and rank == 0:
                log.info("epoch %d step %d/%d loss %.4f", epoch, step, len(dl), loss.item())
        log.info("epoch %d done, mean loss %.4f", epoch, tot / n)
    log.info("training finished")


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed")
        raise
