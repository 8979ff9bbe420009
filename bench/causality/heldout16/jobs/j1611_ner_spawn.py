"""Character-CNN NER model trained with DDP, started with torch.multiprocessing.spawn from
an interactive terminal.  Progress is printed by every process."""
import argparse
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class CharCNNTagger(nn.Module):
    def __init__(self, n_chars=80, d=32, n_tags=7):
        super().__init__()
        self.emb = nn.Embedding(n_chars, d)
        self.conv = nn.Conv1d(d, 64, 3, padding=1)
        self.out = nn.Linear(64, n_tags)

    def forward(self, x):
        h = F.relu(self.conv(self.emb(x).transpose(1, 2))).transpose(1, 2)
        return self.out(h)


def run(rank, world, port, epochs):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(CharCNNTagger())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    print(f"[gpu{rank}] ready (cpu fallback), world={world}", flush=True)
    for epoch in range(epochs):
        t0 = time.time()
        for step in range(50):
            x = torch.randint(0, 80, (16, 40), generator=g)
            y = torch.randint(0, 7, (16, 40), generator=g)
            loss = F.cross_entropy(model(x).transpose(1, 2), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.04)
            if step % 10 == 0:
                print(f"[gpu{rank}] epoch {epoch} it {step}/50 loss={loss.item():.4f}", flush=True)
        print(f"[gpu{rank}] epoch {epoch} took {time.time() - t0:.1f}s", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--nprocs", type=int, default=3)
    ap.add_argument("--port", type=int, default=30111)
    ap.add_argument("--epochs", type=int, default=20)
    a = ap.parse_args()
    mp.spawn(run, args=(a.nprocs, a.port, a.epochs), nprocs=a.nprocs)
