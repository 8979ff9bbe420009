import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, average_gradients, all_reduce_mean

INDEX_VERSION = 2


def open_part(path):
    idx = path[:-4] + ".idx"
    with open(idx, "rb") as f:
        magic, ver, n = f.read(4), *struct.unpack("<II", f.read(8))
    if magic != b"SIDX" or ver != INDEX_VERSION:
        print(f"error: {idx}: index format v{ver} is not supported by this loader (need v{INDEX_VERSION}).\n"
              f"       rebuild it with: python tools/build_index.py {path}", file=sys.stderr, flush=True)
        sys.exit(3)
    arr = np.fromfile(path, dtype=np.float32).reshape(n, 17)
    return torch.from_numpy(arr)


def main():
    rank, world = init_distributed(timeout_s=10)
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch, part in enumerate("ab"):
        path = f"data/part-{rank}{part}.bin"
        print(f"rank {rank}: epoch {epoch} -> {path}", flush=True)
        data = open_part(path)
        for i in range(0, len(data), 16):
            x, y = data[i:i + 16, :-1], data[i:i + 16, -1].long()
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            time.sleep(0.2)
        l = all_reduce_mean(loss.item())
        if rank == 0:
            print(f"epoch {epoch}: mean loss {l:.4f}", flush=True)
    if rank == 0:
        print("all epochs finished", flush=True)


if __name__ == "__main__":
    main()
