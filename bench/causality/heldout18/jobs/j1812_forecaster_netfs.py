"""Load forecaster (GRU) with hand-written gradient all_reduce; started by j1812_start.sh,
one background process per rank, one log file each.  Epoch shards for epochs >= 1 are read
from the shared network filesystem (netfs), epoch 0 from the node-local copy."""
import logging
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import netfs
import trainlib

rank, world = trainlib.init_distributed(timeout_s=20)
node = os.environ["NODE_NAME"]
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s.%(msecs)03d %(levelname)s %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger("fc")


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 24, batch_first=True)
        self.out = nn.Linear(24, 1)

    def forward(self, x):
        return self.out(self.rnn(x)[0][:, -1]).squeeze(1)


def load_epoch(epoch):
    if epoch == 0:
        raw = open(f"local/{node}/part-{rank}-e0.bin", "rb").read()
    else:
        path = f"netfs/shards/part-{rank}-e{epoch}.bin"
        log.info("epoch %d: reading %s", epoch, path)
        t0 = time.time()
        raw = netfs.read_bytes(path, node)
        log.info("epoch %d: read %d bytes in %.1f s", epoch, len(raw), time.time() - t0)
    a = np.frombuffer(raw, dtype=np.float32).reshape(-1, 12, 4)
    return torch.from_numpy(a[:, :, :3].copy()), torch.from_numpy(a[:, -1, 3].copy())


log.info("host %s, rank %d of %d", node, rank, world)
torch.manual_seed(0)
model = Forecaster()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(3):
    X, Y = load_epoch(epoch)
    for step in range(len(X) // 16):
        loss = F.mse_loss(model(X[step * 16:(step + 1) * 16]), Y[step * 16:(step + 1) * 16])
        opt.zero_grad()
        loss.backward()
        trainlib.average_gradients(model)
        opt.step()
        trainlib.fake_compute(0.05)
        if step % 4 == 0:
            log.info("epoch %d step %d mse %.4f", epoch, step, loss.item())
    log.info("epoch %d end, mse %.4f", epoch, trainlib.all_reduce_mean(loss.item()))
log.info("done")
