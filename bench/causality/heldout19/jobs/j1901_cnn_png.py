"""CNN image classifier over PNG shards, one shard per Slurm task (launched with srun)."""
import os
import socket
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib


class PngShard(torch.utils.data.Dataset):
    def __init__(self, root):
        self.files = sorted(f for f in os.listdir(root) if f.endswith(".png"))
        self.root = root
        with open(os.path.join(root, "labels.txt")) as fh:
            self.labels = {a: int(b) for a, b in (l.split() for l in fh)}

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        name = self.files[i]
        img = np.asarray(Image.open(os.path.join(self.root, name)), dtype=np.float32) / 255.0
        x = torch.from_numpy(img).permute(2, 0, 1)
        return x, self.labels[name]


class Net(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.head = nn.Linear(16 * 8 * 8, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.head(x.flatten(1))


def main():
    rank, world, local = hx19lib.init()
    node = os.environ.get("SLURMD_NODENAME", socket.gethostname())
    print(f"task {rank}/{world} on {node} (local id {local}), job {os.environ.get('SLURM_JOB_ID')}", flush=True)
    torch.manual_seed(0)
    ds = PngShard(f"data/shard-{rank}")
    print(f"shard-{rank}: {len(ds)} images", flush=True)
    dl = torch.utils.data.DataLoader(ds, batch_size=16, shuffle=False)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    t0 = time.time()
    for epoch in range(2):
        for step, (x, y) in enumerate(dl):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 3 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} ({time.time() - t0:.1f}s)", flush=True)
            hx19lib.pace(0.2)
    print("done", flush=True)


if __name__ == "__main__":
    main()
