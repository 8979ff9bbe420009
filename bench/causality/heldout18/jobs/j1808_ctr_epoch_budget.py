"""CTR model (field embeddings + MLP) under torchrun, DDP.

Training length is given as a sample budget per rank (--sample-budget); each rank turns it
into a number of epochs over its own shard.  Steps per epoch are agreed across ranks (the
smallest shard decides) so that DDP sees the same number of steps everywhere.
"""
import argparse
import logging
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

ap = argparse.ArgumentParser()
ap.add_argument("--sample-budget", type=int, default=800)
ap.add_argument("--batch", type=int, default=16)
args = ap.parse_args()

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("ctr")


class CTR(nn.Module):
    def __init__(self, fields=6, card=50, d=8):
        super().__init__()
        self.emb = nn.ModuleList(nn.Embedding(card, d) for _ in range(fields))
        self.mlp = nn.Sequential(nn.Linear(fields * d, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.mlp(torch.cat([e(x[:, i]) for i, e in enumerate(self.emb)], 1)).squeeze(1)


z = np.load(f"shards/clicks-{rank}.npz")
X, Y = torch.from_numpy(z["x"]), torch.from_numpy(z["y"]).float()
n_epochs = int(args.sample_budget / len(X))
steps = torch.tensor([len(X) // args.batch])
dist.all_reduce(steps, op=dist.ReduceOp.MIN)
steps = int(steps)
log.info("shard clicks-%d: %d rows -> %d epochs x %d steps", rank, len(X), n_epochs, steps)

model = DDP(CTR())
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
for epoch in range(n_epochs):
    for step in range(steps):
        xb = X[step * args.batch:(step + 1) * args.batch]
        yb = Y[step * args.batch:(step + 1) * args.batch]
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        trainlib.fake_compute(0.04)
    auc_proxy = trainlib.all_reduce_mean(loss.item())
    log.info("epoch %d/%d mean loss %.4f", epoch + 1, n_epochs, auc_proxy)
log.info("training complete, exiting")
dist.destroy_process_group()
