"""Credit-default scorer (MLP over tabular features), DDP, launched with srun.
Features and labels come as separate files per shard (features .npy, labels .txt)."""
import logging
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib


class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = os.environ.get("SLURM_PROCID", "?")
        rec.node = os.environ.get("SLURMD_NODENAME", "?")
        return True


h = logging.StreamHandler()
h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s rank=%(rank)s node=%(node)s %(levelname)s %(name)s: %(message)s"))
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("credit")


def main():
    rank, world, local = hx19lib.init()
    x = torch.from_numpy(np.load(f"data/part-{rank}.features.npy")).float()
    y = torch.tensor([int(l) for l in open(f"data/part-{rank}.labels.txt").read().split()])
    log.info("part-%d: %d feature rows, %d labels, positive rate %.3f", rank, len(x), len(y), y.float().mean())
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(x.shape[1], 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bs = 32
    t0 = time.time()
    for epoch in range(3):
        nb = (len(x) + bs - 1) // bs
        for step in range(nb):
            xb, yb = x[step * bs:(step + 1) * bs], y[step * bs:(step + 1) * bs]
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 3 == 0:
                log.info("epoch %d step %d/%d loss %.4f (%.1fs)", epoch, step, nb, loss.item(), time.time() - t0)
            hx19lib.pace(0.12)
        log.info("epoch %d done", epoch)
    log.info("finished")


if __name__ == "__main__":
    main()
