"""2-D pose keypoint regressor (MLP over flattened heatmap features), DDP.  A rank's shard is
either a packed array (frames.npy) or a directory of per-frame .npy files (older export
format); the per-frame reader keeps its file handles open to avoid re-opening files on the
network filesystem every epoch."""
import glob
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from trainlib import init_distributed, seed_everything


class PackedFrames(Dataset):
    def __init__(self, d):
        a = np.load(os.path.join(d, "frames.npy"))
        self.x, self.y = torch.from_numpy(a[:, :-34].copy()), torch.from_numpy(a[:, -34:].copy())

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class PerFrameFiles(Dataset):
    def __init__(self, d):
        self.paths = sorted(glob.glob(os.path.join(d, "frame_*.npy")))
        self.handles = {}

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        fh = self.handles.get(i)
        if fh is None:
            fh = self.handles[i] = open(self.paths[i], "rb")
        fh.seek(0)
        a = np.load(fh)
        return torch.from_numpy(a[:-34].copy()), torch.from_numpy(a[-34:].copy())


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    d = f"data/shard{rank}"
    ds = PackedFrames(d) if os.path.exists(os.path.join(d, "frames.npy")) else PerFrameFiles(d)
    print(f"rank {rank}: {type(ds).__name__}({d}) {len(ds)} frames", flush=True)
    dl = DataLoader(ds, batch_size=16, shuffle=False)
    model = DDP(nn.Sequential(nn.Linear(96, 128), nn.ReLU(), nn.Linear(128, 34)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i, (x, yk) in enumerate(dl):
            loss = F.smooth_l1_loss(model(x), yk)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.04)
            if i % 5 == 4:
                print(f"rank {rank}: epoch {epoch} it {i + 1}/{len(dl)} keypoint_l1 {loss.item():.4f}", flush=True)
    print(f"rank {rank}: done", flush=True)


if __name__ == "__main__":
    main()
