"""Character-level GRU language model streaming a text shard per rank, DDP under torchrun.
Progress goes to stdout with plain print() (no flush, no -u)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

SEQ, BS = 64, 8


def batches(path):
    buf = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            buf.extend(min(ord(c), 127) for c in line)
            while len(buf) >= SEQ * BS + 1:
                t = torch.tensor(buf[:SEQ * BS + 1])
                buf = buf[SEQ * BS:]
                yield t[:-1].view(BS, SEQ), t[1:].view(BS, SEQ)


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(128, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.out = nn.Linear(64, 128)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def main():
    rank, world, _ = hx19lib.init()
    path = f"corpus/shard-{rank:02d}.txt"
    print(f"[r{rank}] streaming {path}")
    torch.manual_seed(0)
    model = DDP(CharLM())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    t0 = time.time()
    for step, (x, y) in enumerate(batches(path)):
        loss = F.cross_entropy(model(x).reshape(-1, 128), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 4 == 0:
            print(f"[r{rank}] step {step} bpc {loss.item() / 0.6931:.3f} ({time.time() - t0:.1f}s)")
        if step == 40:
            break
        hx19lib.pace(0.1)
    print(f"[r{rank}] done")


if __name__ == "__main__":
    main()
