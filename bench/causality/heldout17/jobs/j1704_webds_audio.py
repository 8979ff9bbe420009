"""Keyword-spotting model (conv over log-mel frames) trained from webdataset-style tar
shards with DDP.  Like fairseq/ESPnet recipes, only rank 0 writes to the console; every
rank's stdout/stderr goes to logs/rank{N}.log (rank 0 tees its log lines there too)."""
import io
import logging
import os
import sys
import tarfile
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

rank_env = int(os.environ["RANK"])
os.makedirs("logs", exist_ok=True)
if rank_env != 0:
    _f = open(f"logs/rank{rank_env}.log", "w", buffering=1)
    sys.stdout = sys.stderr = _f
    os.dup2(_f.fileno(), 1)
    os.dup2(_f.fileno(), 2)
handlers = [logging.StreamHandler(sys.stdout)]
if rank_env == 0:
    handlers.append(logging.FileHandler("logs/rank0.log"))
logging.basicConfig(level=logging.INFO, handlers=handlers,
                    format="%(asctime)s | %(levelname)s | kws | %(message)s")
log = logging.getLogger("kws")


def iter_tar(path):
    with tarfile.open(path) as tf:
        members = {}
        for m in tf:
            key, ext = m.name.rsplit(".", 1)
            members.setdefault(key, {})[ext] = tf.extractfile(m).read()
            if len(members[key]) == 2:
                d = members.pop(key)
                feats = np.load(io.BytesIO(d["npy"]))
                yield torch.from_numpy(feats), int(d["cls"])


def batches(shards, bs=16):
    xs, ys = [], []
    for s in shards:
        for x, y in iter_tar(s):
            xs.append(x); ys.append(y)
            if len(xs) == bs:
                yield torch.stack(xs), torch.tensor(ys)
                xs, ys = [], []


class KWS(nn.Module):
    def __init__(self, n_mels=40, n_cls=12):
        super().__init__()
        self.c1 = nn.Conv1d(n_mels, 64, 5, padding=2)
        self.c2 = nn.Conv1d(64, 64, 5, padding=2)
        self.fc = nn.Linear(64, n_cls)

    def forward(self, x):
        h = F.relu(self.c2(F.relu(self.c1(x))))
        return self.fc(h.mean(-1))


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    shards = sorted(f"shards/{n}" for n in os.listdir("shards"))
    mine = shards[rank::world]
    log.info("rank %d/%d: %d shards: %s", rank, world, len(mine), " ".join(os.path.basename(s) for s in mine))
    model = DDP(KWS())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    t0 = time.time()
    for x, y in batches(mine):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        time.sleep(0.05)
        if step % 5 == 0:
            log.info("rank %d step %d loss %.4f %.1f utt/s", rank, step, loss.item(),
                     step * 16 / (time.time() - t0))
    log.info("rank %d: finished %d steps", rank, step)


if __name__ == "__main__":
    main()
