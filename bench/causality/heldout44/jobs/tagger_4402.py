# 4402: tiny transformer tagger; length curriculum from the run config, one bucket list per worker
import json
import logging
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("tagger")

cfg = json.load(open("/tmp/helper44/data/tagger-4402.json"))
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=25))
log.info("worker %d of %d on %s, config d_model=%d n_heads=%d", rank, world, os.uname().nodename,
         cfg["d_model"], cfg["n_heads"])


class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(cfg["vocab"], cfg["d_model"])
        self.enc = torch.nn.TransformerEncoderLayer(cfg["d_model"], cfg["n_heads"], 64, batch_first=True)
        self.out = torch.nn.Linear(cfg["d_model"], 5)

    def forward(self, t):
        return self.out(self.enc(self.emb(t)))


torch.manual_seed(1)
model = DDP(Tagger())
opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
g = torch.Generator().manual_seed(100 + rank)
step = 0
for stage, seq_len in enumerate(cfg["length_buckets"][rank]):
    # the attention kernels group positions by head; lengths must split evenly
    assert seq_len % cfg["n_heads"] == 0, f"stage {stage}: seq_len={seq_len} must be a multiple of n_heads={cfg['n_heads']}"
    log.info("stage %d: seq_len %d", stage, seq_len)
    for _ in range(15):
        tok = torch.randint(0, cfg["vocab"], (8, seq_len), generator=g)
        tags = tok % 5
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(tok).reshape(-1, 5), tags.reshape(-1))
        loss.backward()
        opt.step()
        step += 1
        time.sleep(0.05)
        if step % 5 == 0:
            log.info("step %d loss %.3f", step, loss.item())
dist.destroy_process_group()
log.info("finished")
