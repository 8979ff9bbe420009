"""Small image classifier (conv + adaptive pool), hand-written gradient all_reduce.

Started by j1803_start.sh as one background process per rank; each writes its own log.
Decoded samples are cached in memory (cache_decoded: true) so epochs after the first skip
the decode.  Images come from the rank's own export, whatever its resolution.
"""
import logging
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import trainlib

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("img")


class Export:
    """One rank's image export: meta.txt says its resolution."""

    def __init__(self, root):
        self.res = int(open(os.path.join(root, "meta.txt")).read().split("=")[1])
        self.cache = {}

    def batch(self, step, n=16):
        out = []
        for i in range(n):
            key = step * n + i
            if key not in self.cache:
                rng = np.random.default_rng(key)
                self.cache[key] = rng.random((3, self.res, self.res), dtype=np.float32)
            out.append(self.cache[key])
        return torch.from_numpy(np.stack(out))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2)
        self.fc = nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        x = F.adaptive_avg_pool2d(F.relu(self.c1(x)), 4)
        return self.fc(x.flatten(1))


exp = Export(f"exports/part-{rank}")
log.info("rank %d/%d export part-%d: %dx%d", rank, world, rank, exp.res, exp.res)
torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    for step in range(12):
        x = exp.batch(step + 12 * epoch)
        y = torch.arange(16) % 5
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        trainlib.average_gradients(model)
        opt.step()
        trainlib.fake_compute(0.1)
        if step % 4 == 0:
            log.info("epoch %d step %d loss %.4f cached %d", epoch, step, loss.item(), len(exp.cache))
    log.info("epoch %d done, loss %.4f", epoch, trainlib.all_reduce_mean(loss.item()))
log.info("training finished")
