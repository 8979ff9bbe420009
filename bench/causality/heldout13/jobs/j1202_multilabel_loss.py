"""Multi-label tagger with a hand-written asymmetric loss; gradients averaged by hand."""
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn


class AsymmetricLoss(nn.Module):
    def __init__(self, gamma_neg=4.0, gamma_pos=1.0, clip=0.05):
        super().__init__()
        self.gamma_neg, self.gamma_pos, self.clip = gamma_neg, gamma_pos, clip

    def forward(self, logits, targets):
        if logits.shape != targets.shape:
            raise ValueError(
                f"AsymmetricLoss: logits shape {tuple(logits.shape)} does not match "
                f"targets shape {tuple(targets.shape)}")
        p = torch.sigmoid(logits)
        p_neg = (p - self.clip).clamp(min=0)
        lp = targets * torch.log(p.clamp(min=1e-8)) * (1 - p) ** self.gamma_pos
        ln = (1 - targets) * torch.log((1 - p_neg).clamp(min=1e-8)) * p_neg ** self.gamma_neg
        return -(lp + ln).sum(dim=1).mean()


def main():
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=12))
    batches = torch.load(f"shards/tags-{rank:05d}.pt")
    print(f"[init] rank={rank} world={world} batches={len(batches)}", flush=True)
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 6))
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    crit = AsymmetricLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for i, (x, y) in enumerate(batches):
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad)
                p.grad /= world
            opt.step()
            if i % 4 == 0:
                print(f"epoch {epoch} it {i} loss {loss.item():.4f}", flush=True)
            time.sleep(0.05)
    print("done", flush=True)


if __name__ == "__main__":
    main()
