"""Skip-gram word2vec with negative sampling, DDP.  Rank 0 builds the unigram^0.75
negative-sampling table from the corpus counts and broadcasts it to the other ranks."""
import collections
import json
import os
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib


class SkipGram(nn.Module):
    def __init__(self, vocab, d=32):
        super().__init__()
        self.inp = nn.Embedding(vocab, d)
        self.out = nn.Embedding(vocab, d)

    def forward(self, center, ctx, neg):
        c = self.inp(center)
        pos = F.logsigmoid((c * self.out(ctx)).sum(-1))
        negs = F.logsigmoid(-(self.out(neg) @ c.unsqueeze(-1)).squeeze(-1)).sum(-1)
        return -(pos + negs).mean()


def build_neg_table(counts, table_size):
    freqs = np.asarray(counts, dtype=np.float64) ** 0.75
    freqs /= freqs.sum()
    table = np.zeros(int(table_size), dtype=np.int64)
    bounds = np.round(np.cumsum(freqs) * len(table)).astype(np.int64)
    start = 0
    for w, end in enumerate(bounds):
        table[start:end] = w
        start = end
    return table


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    with open("w2v_config.json") as f:
        cfg = json.load(f)
    corpus = np.load(f"corpus/ids-{rank}.npy")
    vocab = cfg["vocab_size"]
    print(f"{time.strftime('%H:%M:%S')} rank {rank}: {corpus.size} tokens, vocab {vocab}", flush=True)
    counts = torch.bincount(torch.from_numpy(corpus), minlength=vocab).double()
    dist.all_reduce(counts)
    if rank == 0:
        print(f"{time.strftime('%H:%M:%S')} building negative table ({cfg['neg_table_size']:.0e} entries)", flush=True)
        table = torch.from_numpy(build_neg_table(counts.numpy(), cfg["neg_table_size"]))
        n = torch.tensor([table.numel()])
    else:
        n = torch.tensor([0])
    dist.broadcast(n, src=0)
    if rank != 0:
        table = torch.empty(int(n.item()), dtype=torch.int64)
    dist.broadcast(table, src=0)
    model = DDP(SkipGram(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(rank)
    win, bs = 2, 256
    ids = torch.from_numpy(corpus)
    for step in range(60):
        pos = torch.randint(win, ids.numel() - win, (bs,), generator=g)
        off = torch.randint(1, win + 1, (bs,), generator=g) * (torch.randint(0, 2, (bs,), generator=g) * 2 - 1)
        neg = table[torch.randint(0, table.numel(), (bs, 5), generator=g)]
        loss = model(ids[pos], ids[pos + off], neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"{time.strftime('%H:%M:%S')} rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    print(f"{time.strftime('%H:%M:%S')} rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
