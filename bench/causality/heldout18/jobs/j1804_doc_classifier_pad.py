"""Long-document classifier (embedding + attention pooling), torchrun, DDP.

Each rank reads its tokenized shard (shards/docs-R.npz: flat tokens + offsets) and pads
each batch to its longest document ("no truncation: the pooling is length-agnostic").
"""
import logging
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format=f"[%(asctime)s][%(levelname)s][trainer:{rank}] %(message)s")
log = logging.getLogger("doccls")


class Shard:
    def __init__(self, path):
        z = np.load(path)
        self.tokens, self.offsets, self.labels = z["tokens"], z["offsets"], z["labels"]

    def __len__(self):
        return len(self.labels)

    def batch(self, idx):
        docs = [self.tokens[self.offsets[i]:self.offsets[i + 1]] for i in idx]
        L = max(len(d) for d in docs)
        x = np.zeros((len(docs), L), dtype=np.int64)
        mask = np.zeros((len(docs), L), dtype=bool)
        for j, d in enumerate(docs):
            x[j, :len(d)] = d
            mask[j, :len(d)] = True
        return torch.from_numpy(x), torch.from_numpy(mask), torch.from_numpy(self.labels[idx])


class AttnPool(nn.Module):
    def __init__(self, vocab=2000, d=64, classes=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.score = nn.Linear(d, 1)
        self.out = nn.Linear(d, classes)

    def forward(self, x, mask):
        h = self.emb(x)
        a = self.score(torch.tanh(h)).squeeze(-1).masked_fill(~mask, -1e9)
        return self.out((F.softmax(a, -1).unsqueeze(-1) * h).sum(1))


shard = Shard(f"shards/docs-{rank}.npz")
lens = np.diff(shard.offsets)
log.info("shard docs-%d: %d docs, mean len %.0f", rank, len(shard), lens.mean())
model = DDP(AttnPool())
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
B = 16
for epoch in range(3):
    perm = np.random.default_rng(epoch).permutation(len(shard))
    for step in range(len(shard) // B):
        x, mask, y = shard.batch(perm[step * B:(step + 1) * B])
        loss = F.cross_entropy(model(x, mask), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            log.info("epoch %d step %d padded_len %d loss %.4f", epoch, step, x.shape[1], loss.item())
    log.info("epoch %d done", epoch)
log.info("finished")
