"""ViT-tiny on synthetic 16x16 'textures' (4x4 patches), DDP under torchrun.  Rank 0 shows a
tqdm bar; every rank prints an epoch summary."""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm

import trainlib


class ViTTiny(nn.Module):
    def __init__(self, patch=4, d=32, depth=2, heads=4, n_cls=8, img=16):
        super().__init__()
        self.patch = nn.Conv2d(1, d, patch, stride=patch)
        n = (img // patch) ** 2
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, n + 1, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, heads, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, depth)
        self.head = nn.Linear(d, n_cls)

    def forward(self, x):
        t = self.patch(x).flatten(2).transpose(1, 2)
        t = torch.cat([self.cls.expand(t.size(0), -1, -1), t], dim=1) + self.pos
        return self.head(self.enc(t)[:, 0])


def make_batch(g, bs=32):
    y = torch.randint(0, 8, (bs,), generator=g)
    freq = (y.float() + 1).view(-1, 1, 1, 1)
    grid = torch.linspace(0, 3.14, 16)
    img = torch.sin(freq * grid.view(1, 1, 1, -1)) * torch.cos(freq * grid.view(1, 1, -1, 1))
    return img + 0.3 * torch.randn(bs, 1, 16, 16, generator=g), y


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    torch.manual_seed(0)
    model = DDP(ViTTiny())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    steps = 50
    for epoch in range(20):
        it = range(steps)
        if rank == 0:
            it = tqdm(it, desc=f"epoch {epoch}", file=sys.stdout, mininterval=0.5, ncols=80)
        correct = 0
        for step in it:
            x, y = make_batch(g)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
            time.sleep(0.02)
        acc = trainlib.all_reduce_mean(correct / (steps * 32))
        print(f"rank {rank}: epoch {epoch} train_acc {acc:.3f} last_loss {loss.item():.4f}", flush=True)
    dist.barrier()


if __name__ == "__main__":
    main()
