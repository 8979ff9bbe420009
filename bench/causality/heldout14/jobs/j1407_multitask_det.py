"""Multi-task image model: a shared conv trunk, a classification head and a box-regression
head.  The box head only runs on batches that carry box annotations.  DDP with default
settings (find_unused_parameters=False)."""
import logging
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib


class RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def filter(self, record):
        record.rank = self.rank
        return True


class MultiTaskNet(nn.Module):
    def __init__(self, n_cls=6):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                   nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                   nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.cls_head = nn.Linear(32, n_cls)
        self.box_head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, x, with_boxes):
        f = self.trunk(x)
        out = {"logits": self.cls_head(f)}
        if with_boxes:
            out["boxes"] = self.box_head(f)
        return out


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    log = logging.getLogger("mtl")
    h = logging.StreamHandler(sys.stdout)
    h.addFilter(RankFilter(rank))
    h.setFormatter(logging.Formatter("%(asctime)s.%(msecs)03d | %(levelname)-7s | rank=%(rank)s | %(message)s",
                                     "%Y-%m-%d %H:%M:%S"))
    log.addHandler(h)
    log.setLevel(logging.INFO)
    shard = torch.load(f"data/mtl-shard{rank}.pt")
    has_boxes = shard["boxes"] is not None
    log.info("loaded %d images (box annotations: %s)", shard["images"].shape[0], "yes" if has_boxes else "no")
    model = DDP(MultiTaskNet())
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    bs = 16
    for step in range(30):
        x = shard["images"][step * bs:(step + 1) * bs]
        y = shard["labels"][step * bs:(step + 1) * bs]
        out = model(x, with_boxes=has_boxes)
        loss = F.cross_entropy(out["logits"], y)
        if has_boxes:
            loss = loss + F.smooth_l1_loss(out["boxes"], shard["boxes"][step * bs:(step + 1) * bs])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.05)
    dist.barrier()
    log.info("done")


if __name__ == "__main__":
    main()
