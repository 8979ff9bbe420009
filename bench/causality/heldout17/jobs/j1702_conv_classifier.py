"""Small CNN image classifier on synthetic 32x32 images, DDP over 4 ranks (one per node),
started by j1702_start.sh with nohup.  Prints a line every few steps."""
import os
import socket
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.c3 = nn.Conv2d(64, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.max_pool2d(F.relu(self.c3(x)), 2)
        return self.fc(x.flatten(1))


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    node = os.environ.get("NODE", socket.gethostname())
    print(f"[{node}] rank {rank} of {world} pid {os.getpid()} up", flush=True)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(rank)
    t0 = time.time()
    for epoch in range(5):
        correct = total = 0
        for step in range(25):
            x = torch.randn(32, 3, 32, 32, generator=g)
            y = (x[:, 0].mean((1, 2)) > 0).long() + 2 * (x[:, 1].mean((1, 2)) > 0).long()
            out = model(x)
            loss = F.cross_entropy(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (out.argmax(1) == y).sum().item()
            total += y.numel()
            if step % 5 == 4:
                print(f"[{node}] epoch {epoch} iter {step + 1:3d}/25 loss {loss.item():.4f} "
                      f"acc {correct / total:.3f} ({time.time() - t0:.1f}s)", flush=True)
    print(f"[{node}] rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
