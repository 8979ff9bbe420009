"""Two-layer GCN node classifier on synthetic community graphs (dense normalised adjacency),
DDP under torchrun.  glog/absl-style log lines, as the team's shared logging helper prints."""
import logging
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

logging.basicConfig(level=logging.INFO, datefmt="%m%d %H:%M:%S",
                    format="%(levelname).1s%(asctime)s.%(msecs)03d %(process)7d %(filename)s:%(lineno)d] %(message)s")
log = logging.getLogger("gcn")


def graph(g, n=200, k=4, d=16):
    lab = torch.randint(0, k, (n,), generator=g)
    p = torch.where(lab[:, None] == lab[None, :], 0.08, 0.005)
    a = (torch.rand(n, n, generator=g) < p).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    dinv = a.sum(1).rsqrt()
    x = F.one_hot(lab, k).float() @ torch.randn(k, d, generator=g) + torch.randn(n, d, generator=g)
    return dinv[:, None] * a * dinv[None, :], x, lab


class GCN(nn.Module):
    def __init__(self, d=16, h=32, k=4):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d, h), nn.Linear(h, k)

    def forward(self, a, x):
        return a @ self.l2(F.relu(a @ self.l1(x)))


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    log.info("rank %d/%d ready", rank, world)
    model = DDP(GCN())
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 2001):
        a, x, y = graph(g)
        logits = model(a, x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.1)
        if step % 10 == 0:
            acc = (logits.argmax(1) == y).float().mean().item()
            log.info("step %d loss %.4f node_acc %.3f", step, loss.item(), acc)
    log.info("done")


if __name__ == "__main__":
    main()
