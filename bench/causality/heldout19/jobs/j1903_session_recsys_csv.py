"""Session-based next-item recommender over CSV event shards (one shard per rank), DDP.
Runs as a Kubeflow PyTorchJob (one pod per rank)."""
import csv
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

N_ITEMS = 500
FEATURES = ("item_id", "prev_item_id", "dwell_ms", "position")


def load_shard(path):
    rows = []
    with open(path, newline="") as fh:
        for rec in csv.DictReader(fh):
            rows.append([int(rec["item_id"]), int(rec["prev_item_id"]),
                         float(rec["dwell_ms"]) / 1000.0, int(rec["position"])])
    t = torch.tensor(rows)
    return t[:, 1].long(), t[:, 2:].float(), t[:, 0].long()


class Rec(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_ITEMS, 32)
        self.side = nn.Linear(2, 32)
        self.out = nn.Linear(32, N_ITEMS)

    def forward(self, prev, side):
        return self.out(torch.tanh(self.emb(prev) + self.side(side)))


def main():
    rank, world, _ = hx19lib.init()
    pod = os.environ.get("POD_NAME")
    print(f"{pod}: process group up, rank {rank} of {world}")
    torch.manual_seed(0)
    model = DDP(Rec())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    shard = f"data/events-part-{rank:05d}.csv"
    print(f"{pod}: reading {shard}")
    prev, side, target = load_shard(shard)
    print(f"{pod}: {len(target)} events")
    t0 = time.time()
    for step in range(40):
        i = (step * 64) % (len(target) - 64)
        loss = F.cross_entropy(model(prev[i:i + 64], side[i:i + 64]), target[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"{pod}: step {step} loss {loss.item():.3f} ({time.time() - t0:.1f}s)")
        hx19lib.pace(0.1)
    print(f"{pod}: finished")


if __name__ == "__main__":
    main()
