"""Recommendation-style embedding model with a legacy shard index reader."""
import logging
import os
import sys
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("recsys")


class ShardIndex:
    """Ported from the old C++ loader: bails out hard when an index block is missing."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.blocks = [int(l) for l in f if l.strip()]

    def block(self, i):
        if i >= len(self.blocks):
            os._exit(1)
        return self.blocks[i]


class TwoTower(nn.Module):
    def __init__(self, n_users=500, n_items=800, d=16):
        super().__init__()
        self.u = nn.Embedding(n_users, d)
        self.i = nn.Embedding(n_items, d)

    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(-1)


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    idx = ShardIndex(f"index/interactions-{rank}.idx")
    log.info("index %s: %d blocks", idx.path, len(idx.blocks))
    model = DDP(TwoTower())
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    g = torch.Generator()
    for step in range(60):
        g.manual_seed(idx.block(step))
        u = torch.randint(0, 500, (64,), generator=g)
        i = torch.randint(0, 800, (64,), generator=g)
        y = torch.rand(64, generator=g).round()
        loss = F.binary_cross_entropy_with_logits(model(u, i), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.05)
        if step % 10 == 9:
            log.info("step %d bce %.4f", step + 1, loss.item())
    log.info("finished")


if __name__ == "__main__":
    main()
