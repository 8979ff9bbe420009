"""Tiny GRU language model (DDP, 4 ranks) under torchrun --max_restarts 2; each worker
logs to logs/rank_N.txt and the console.  Healthy: the user stops it with Ctrl-C."""
import logging
import os
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
os.makedirs("logs", exist_ok=True)
log = logging.getLogger("lm")
log.setLevel(logging.INFO)
for h in (logging.StreamHandler(sys.stdout), logging.FileHandler(f"logs/rank_{rank}.txt")):
    h.setFormatter(logging.Formatter(f"%(asctime)s rank {rank}/{world} %(levelname)s %(message)s"))
    log.addHandler(h)


class LM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(64, 32)
        self.gru = torch.nn.GRU(32, 64, batch_first=True)
        self.out = torch.nn.Linear(64, 64)

    def forward(self, t):
        h, _ = self.gru(self.emb(t))
        return self.out(h)


tokens = torch.from_numpy((np.abs(np.load(f"data/shard-{rank:05d}.npy")) * 20).astype(np.int64) % 64)
log.info("tokens %s", tuple(tokens.shape))
torch.manual_seed(0)
model = DDP(LM())
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(50):
    for step in range(0, 4000 - 16, 16):
        t = tokens[step:step + 16]
        logits = model(t[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 64), t[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.02)
        if step % 320 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step // 16, loss.item())
dist.destroy_process_group()
