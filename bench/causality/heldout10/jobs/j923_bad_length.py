import os
import struct
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed


class Pooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(500, 32, mode="mean")
        self.out = nn.Linear(32, 2)

    def forward(self, tokens):
        return self.out(self.emb(tokens))


def pad_to_header_len(path, bs=16):
    # preallocate using the lengths from the record headers (faster than
    # building python lists for long sequences)
    with open(path, "rb") as f:
        while True:
            lens, recs = [], []
            for _ in range(bs):
                hdr = f.read(8)
                if not hdr:
                    return
                (n,) = struct.unpack("<Q", hdr)
                lens.append(n)
                recs.append(f.read(2 * n) if n < 4096 else f.read(40))
            out = torch.zeros((bs, max(lens)), dtype=torch.long)
            for i, r in enumerate(recs):
                t = torch.tensor(struct.unpack(f"<{len(r) // 2}H", r), dtype=torch.long)
                out[i, :len(t)] = t
            yield out


def main():
    rank, world = init_distributed(timeout_s=10)
    print(f"rank {rank} of {world} on {os.uname().nodename}, reading seqs/part{rank}.bin", flush=True)
    model = DDP(Pooler())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, tokens in enumerate(pad_to_header_len(f"seqs/part{rank}.bin")):
        y = (tokens[:, 0] % 2)
        loss = F.cross_entropy(model(tokens), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.1)
        if rank == 0 and step % 5 == 0:
            print(f"step {step} loss {loss.item():.4f} max_len {tokens.shape[1]}", flush=True)
    print(f"rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
