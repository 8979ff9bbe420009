"""Text classification with a 'native' fast path for decoding records.
The fast path reads the record straight from a raw buffer address; an empty
record comes back with a NULL address and the read crashes the process."""
import ctypes
import faulthandler
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients

faulthandler.enable()


class RecordBuffer:
    def __init__(self, records):
        self._bufs = [ctypes.create_string_buffer(r) if r else None for r in records]

    def address(self, i):
        b = self._bufs[i]
        return ctypes.addressof(b) if b is not None else 0

    def decode(self, i):
        return ctypes.string_at(self.address(i)).decode()


def make_records(rank, n=400):
    recs = [f"sample {rank}-{i} the quick brown fox {i % 7}".encode() for i in range(n)]
    if rank == 2:
        recs[137] = b""   # truncated line in this rank's part file
    return recs


def featurize(text, dim=64):
    v = torch.zeros(dim)
    for tok in text.split():
        v[hash(tok) % dim] += 1.0
    return v


class BagModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(64, 7)

    def forward(self, x):
        return self.lin(x)


def main():
    rank, world = init_distributed(timeout_s=12)
    buf = RecordBuffer(make_records(rank))
    model = BagModel()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print(f"rank {rank}: {len(buf._bufs)} records", flush=True)
    for step in range(25):
        x, y = [], []
        for i in range(step * 16, step * 16 + 16):
            text = buf.decode(i)
            x.append(featurize(text))
            y.append(int(text.split()[-1]))
            time.sleep(0.01)
        loss = F.cross_entropy(model(torch.stack(x)), torch.tensor(y))
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        if step % 3 == 0:
            print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
        if step == 6:
            # rebuild vocabulary statistics (slow, local only)
            time.sleep(8)
    print(f"rank {rank}: done", flush=True)


if __name__ == "__main__":
    main()
