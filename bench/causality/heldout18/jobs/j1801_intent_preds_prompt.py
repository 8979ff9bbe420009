"""Intent classifier (bag of embeddings) under torchrun, DDP.

After each epoch every rank writes its validation predictions to preds/part-0000R.jsonl
through a small "safe write" helper that asks before overwriting an existing file.
"""
import json
import logging
import os
import sys
import time

import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format=f"%(asctime)s [rank{rank}] %(levelname)s %(message)s")
log = logging.getLogger("intent")

VOCAB, CLASSES, EPOCHS, STEPS = 500, 7, 4, 12


def confirm_overwrite(path):
    """Interactive guard copied from the notebook version of this script."""
    if os.path.exists(path):
        ans = input(f"{path} exists. Overwrite? [y/N] ")
        if ans.strip().lower() not in ("y", "yes"):
            raise SystemExit(f"not overwriting {path}")


def write_preds(path, preds):
    confirm_overwrite(path)
    with open(path, "w") as f:
        for i, p in enumerate(preds):
            f.write(json.dumps({"id": i, "pred": int(p)}) + "\n")


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.out = nn.Linear(32, CLASSES)

    def forward(self, toks):
        return self.out(self.emb(toks))


trainlib.seed_everything(100 + rank)
model = DDP(BagClassifier())
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
lossf = nn.CrossEntropyLoss()
g = torch.Generator().manual_seed(rank)
xs = torch.randint(0, VOCAB, (STEPS * 16, 12), generator=g)
ys = xs[:, 0] % CLASSES
os.makedirs("preds", exist_ok=True)
log.info("world=%d shard=%d rows=%d", world, rank, len(xs))

for epoch in range(EPOCHS):
    for step in range(STEPS):
        xb, yb = xs[step * 16:(step + 1) * 16], ys[step * 16:(step + 1) * 16]
        loss = lossf(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        trainlib.fake_compute(0.03)
        if step % 6 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
    with torch.no_grad():
        preds = model(xs[:64]).argmax(1)
    acc = trainlib.all_reduce_mean((preds == ys[:64]).float().mean().item())
    log.info("epoch %d val acc %.3f", epoch, acc)
    if epoch == 1:
        path = f"preds/part-{rank:05d}.jsonl"
        log.info("writing predictions to %s", path)
        write_preds(path, preds.tolist())

log.info("done")
dist.destroy_process_group()
