"""Wide&deep CTR model on synthetic impressions, DDP, two hosts started DeepSpeed-style
through pdsh (one torchrun agent per host).  A healthy run with real warnings."""
import logging
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("ctr")


class WideDeep(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(1000, 16, mode="sum")
        self.wide = nn.Linear(8, 1)
        self.deep = nn.Sequential(nn.Linear(16 + 8, 64), nn.ReLU(), nn.Linear(64, 1))
        for m in self.deep:
            if isinstance(m, nn.Linear):
                nn.init.xavier_uniform(m.weight)

    def forward(self, ids, off, dense):
        e = self.emb(ids, off)
        return (self.wide(dense) + self.deep(torch.cat([e, dense], 1))).squeeze(1)


def main():
    rank, world, local = hx19lib.init()
    host = os.environ.get("NODE_NAME", "?")
    node_rank = int(os.environ.get("GROUP_RANK", "0"))
    nproc = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    log.info("[%s] node_rank=%d local_rank=%d -> global rank %d/%d", host, node_rank, local, node_rank * nproc + local, world)
    g = torch.Generator().manual_seed(rank)
    torch.manual_seed(0)
    model = DDP(WideDeep())
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    t0 = time.time()
    losses = []
    for step in range(36):
        n = 64
        ids = torch.randint(0, 1000, (n * 4,), generator=g)
        off = torch.range(0, 4 * (n - 1), 4).long()
        dense = torch.randn(n, 8, generator=g)
        y = ((ids.view(n, 4) % 7 == 0).any(1).float() + dense[:, 0] > 0.8).float()
        loss = F.binary_cross_entropy_with_logits(model(ids, off, dense), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if step % 6 == 5 and step >= 11:
            cur, prev = sum(losses[-6:]) / 6, sum(losses[-12:-6]) / 6
            if cur > 0.97 * prev:
                log.warning("[%s] rank %d: logloss not improving (last 6 steps %.4f, previous 6 %.4f)", host, rank, cur, prev)
        if step % 6 == 0:
            log.info("[%s] rank %d: step %d logloss %.4f (%.1fs)", host, rank, step, loss.item(), time.time() - t0)
        hx19lib.pace(0.12)
    log.info("[%s] rank %d: finished, final logloss %.4f", host, rank, losses[-1])


if __name__ == "__main__":
    main()
