"""Intent classifier on sentence features, hand-written gradient all_reduce.
Started once per rank by xargs -P (RANK comes from the command line)."""
import json
import logging
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients, all_reduce_mean, seed_everything, fake_compute

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger("intent.train")


def main():
    rank, world = init_distributed(timeout_s=20)
    seed_everything(1234)
    log.info("process group ready: rank %d of %d, backend gloo", rank, world)
    shard = f"data/shard-{rank:05d}"
    meta = json.load(open(shard + ".json"))
    x = torch.from_numpy(np.load(shard + ".x.npy"))
    y = torch.from_numpy(np.load(shard + ".y.npy"))
    log.info("rank %d: loaded %s (%d examples, featurize %s)", rank, shard, meta["n"], meta["featurize"])
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 12))
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
    if rank == 0:
        log.info("model: %d parameters, 12 intents", sum(p.numel() for p in model.parameters()))
    bs = 32
    for epoch in range(3):
        perm = torch.randperm(len(x))
        for step in range(len(x) // bs):
            idx = perm[step * bs:(step + 1) * bs]
            logits = model(x[idx])
            loss = F.cross_entropy(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            fake_compute(0.02)
            if step % 5 == 0:
                l = all_reduce_mean(loss.item())
                if rank == 0:
                    log.info("epoch %d step %d/%d loss %.4f", epoch, step, len(x) // bs, l)
    log.info("rank %d done", rank)


if __name__ == "__main__":
    main()
