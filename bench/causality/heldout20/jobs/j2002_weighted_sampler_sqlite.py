"""Classifier with a weighted sampler whose weights come from a per-rank sqlite index
(DDP, 3 ranks), run by torchrun --max_restarts 1.  Each epoch re-reads the index."""
import os
import sqlite3
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
log = hx20lib.console_logger("sampler", f"[%(asctime)s][%(name)s][%(levelname)s] rank {rank}: %(message)s")
log.info("attempt %s, world %d", os.environ.get("TORCHELASTIC_RESTART_COUNT"), world)
x = torch.from_numpy(np.load(f"data/shard-{rank:05d}.npy"))


def read_index():
    db = sqlite3.connect(f"data/index-{rank:02d}.sqlite", timeout=2.0)
    rows = db.execute("select id, label, weight from samples order by id").fetchall()
    db.close()
    return rows


torch.manual_seed(0)
model = DDP(hx20lib.mlp(16, 32, 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    rows = read_index()
    y = torch.tensor([r[1] for r in rows])
    w = torch.tensor([r[2] for r in rows])
    idx = torch.multinomial(w, 320, replacement=True, generator=torch.Generator().manual_seed(epoch))
    log.info("epoch %d: %d index rows, sampled %d", epoch, len(rows), len(idx))
    for step in range(10):
        b = idx[step * 32:(step + 1) * 32]
        loss = torch.nn.functional.cross_entropy(model(x[b]), y[b])
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.1)
    log.info("epoch %d loss %.4f", epoch, loss.item())
log.info("finished")
dist.destroy_process_group()
