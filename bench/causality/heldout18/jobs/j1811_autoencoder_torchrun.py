"""Tabular denoising autoencoder, torchrun, DDP.  Healthy, long-running job (30 epochs)."""
import logging
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s %(message)s")
log = logging.getLogger("dae")

g = torch.Generator().manual_seed(rank)
X = torch.randn(512, 24, generator=g)
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(24, 12), nn.Tanh(), nn.Linear(12, 24)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
log.info("rank %d: %d rows", rank, len(X))
for epoch in range(30):
    for step in range(16):
        xb = X[step * 32:(step + 1) * 32]
        loss = F.mse_loss(model(xb + 0.2 * torch.randn_like(xb)), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        trainlib.fake_compute(0.08)
    log.info("epoch %d loss %.4f", epoch, trainlib.all_reduce_mean(loss.item()))
log.info("done")
