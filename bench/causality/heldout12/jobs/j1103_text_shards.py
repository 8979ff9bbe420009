"""Char-level LM over plain-text shards; each task reads corpus/part-<procid>.txt."""
import os
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything


class CharLM(nn.Module):
    def __init__(self, vocab=128, d=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        return self.head(h)


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            yield line.rstrip("\n")


def batches(path, seq=32, bs=8):
    buf = []
    for line in read_lines(path):
        ids = [min(ord(c), 127) for c in line][: seq + 1]
        if len(ids) < seq + 1:
            continue
        buf.append(ids)
        if len(buf) == bs:
            t = torch.tensor(buf)
            yield t[:, :-1], t[:, 1:]
            buf = []


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    host = os.uname().nodename
    path = f"corpus/part-{rank}.txt"
    print(f"{time.strftime('%H:%M:%S')} task {rank} of {world} on {host}: streaming {path}", flush=True)
    model = DDP(CharLM())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    step = 0
    for epoch in range(2):
        for x, y in batches(path):
            loss = F.cross_entropy(model(x).reshape(-1, 128), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 10 == 0:
                print(f"{time.strftime('%H:%M:%S')} epoch {epoch} step {step} loss {loss.item():.3f}", flush=True)
    print(f"{time.strftime('%H:%M:%S')} finished {step} steps", flush=True)


if __name__ == "__main__":
    main()
