"""Speaker-embedding model (frame MLP + mean pooling), hand-written all_reduce of gradients.

Started by j1805_start.sh as background processes that all write to the job's console.
Features come from the rank's paged record shard through fastrec (zero-copy reader).
"""
import logging
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import trainlib
from fastrec import RecReader

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("spkemb")

rec = RecReader(f"feats/utt-{rank:02d}")
log.info("opened feats/utt-%02d: %d utterances", rank, len(rec))


def utterance(i):
    raw = rec.get(i)
    return torch.from_numpy(np.frombuffer(raw, dtype=np.float32).reshape(-1, 20).copy())


model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32))
head = nn.Linear(32, 12)
params = list(model.parameters()) + list(head.parameters())
torch.manual_seed(0)
opt = torch.optim.Adam(params, lr=1e-3)
B = 8
for epoch in range(3):
    for step in range(len(rec) // B):
        embs, ys = [], []
        for i in range(step * B, (step + 1) * B):
            embs.append(model(utterance(i)).mean(0))
            ys.append(i % 12)
        loss = F.cross_entropy(head(torch.stack(embs)), torch.tensor(ys))
        opt.zero_grad()
        loss.backward()
        for p in params:
            torch.distributed.all_reduce(p.grad)
            p.grad /= world
        opt.step()
        trainlib.fake_compute(0.05)
        if step % 4 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
    log.info("epoch %d finished", epoch)
log.info("done")
