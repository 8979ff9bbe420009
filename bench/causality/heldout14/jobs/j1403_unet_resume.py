"""Tiny U-Net for binary segmentation of synthetic blobs, resumed from a per-node local
checkpoint cache ($CKPT_DIR/last.pt, synced from the shared store by a cron job)."""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib


def block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.enc1 = block(1, c)
        self.enc2 = block(c, 2 * c)
        self.mid = block(2 * c, 2 * c)
        self.up = nn.ConvTranspose2d(2 * c, c, 2, stride=2)
        self.dec1 = block(2 * c, c)
        self.head = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        m = self.mid(e2)
        d = self.dec1(torch.cat([self.up(m), e1], dim=1))
        return self.head(d)


def blobs(n, g, size=32):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    cx, cy = torch.randint(6, size - 6, (2, n, 1, 1), generator=g)
    r = torch.randint(3, 8, (n, 1, 1), generator=g)
    mask = ((xx - cx) ** 2 + (yy - cy) ** 2 <= r ** 2).float()
    img = mask + 0.3 * torch.randn(n, size, size, generator=g)
    return img.unsqueeze(1), mask.unsqueeze(1)


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    host = os.uname().nodename
    print(f"[{time.strftime('%H:%M:%S')}] {host} rank {rank}/{world} pid {os.getpid()} up", flush=True)
    model = TinyUNet()
    ckpt_path = os.path.join(os.environ["CKPT_DIR"], "last.pt")
    start_step = 0
    if os.path.exists(ckpt_path):
        print(f"[{time.strftime('%H:%M:%S')}] resuming from {ckpt_path}", flush=True)
        ckpt = torch.load(ckpt_path, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        start_step = ckpt["step"]
        print(f"[{time.strftime('%H:%M:%S')}] restored step {start_step}", flush=True)
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(rank + 17)
    for step in range(start_step, start_step + 40):
        x, y = blobs(8, g)
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"[{time.strftime('%H:%M:%S')}] step {step} bce {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    print(f"[{time.strftime('%H:%M:%S')}] done", flush=True)


if __name__ == "__main__":
    main()
