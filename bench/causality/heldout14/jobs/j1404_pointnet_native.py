"""PointNet-style classifier over packed point-cloud shards.  The shard reader hands out
zero-copy views of the packed float32 buffer through raw addresses (as the C++ reader
used in production does), read here with ctypes."""
import ctypes
import faulthandler
import os
import struct
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

faulthandler.enable()


class PackedCloudShard:
    """index.bin: (offset, n_points, label) per sample; points.bin: packed xyz float32."""

    def __init__(self, root):
        with open(os.path.join(root, "points.bin"), "rb") as f:
            self._buf = ctypes.create_string_buffer(f.read())
        self._base = ctypes.addressof(self._buf)
        self._size = ctypes.sizeof(self._buf) - 1
        self.index = []
        with open(os.path.join(root, "index.bin"), "rb") as f:
            raw = f.read()
        for i in range(0, len(raw), 12):
            self.index.append(struct.unpack("<iii", raw[i:i + 12]))

    def __len__(self):
        return len(self.index)

    def _page_base(self, off):
        # base of the mapped region holding `off`; NULL when nothing is mapped there
        return self._base if 0 <= off < self._size else 0

    def _ptr(self, off):
        return self._page_base(off) + off

    def get(self, i):
        off, n, label = self.index[i]
        raw = ctypes.string_at(self._ptr(off), n * 12)
        pts = torch.frombuffer(bytearray(raw), dtype=torch.float32).view(n, 3)
        return pts, label


class PointNet(nn.Module):
    def __init__(self, n_cls=5):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, n_cls))

    def forward(self, pts):
        return self.head(self.mlp(pts).max(dim=1).values)


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    shard = PackedCloudShard(f"clouds/shard-{rank:03d}")
    if rank == 0:
        print(f"world={world} samples/rank={len(shard)}", flush=True)
    model = DDP(PointNet())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bs = 8
    for epoch in range(2):
        for step in range(len(shard) // bs):
            batch = [shard.get(step * bs + j) for j in range(bs)]
            pts = torch.stack([p for p, _ in batch])
            y = torch.tensor([l for _, l in batch])
            loss = nn.functional.cross_entropy(model(pts), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if rank == 0 and step % 5 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
            time.sleep(0.05)
    dist.barrier()
    if rank == 0:
        print("training finished", flush=True)


if __name__ == "__main__":
    main()
