"""Click-through model (hashed features + MLP) with DDP.  Each rank streams its own
part of the event log; a data-quality guard stops the worker if too many rows are
duplicated (it writes its reason to a side file that nobody reads)."""
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

DUP_LIMIT = 0.2


def read_events(rank, step):
    g = torch.Generator().manual_seed(rank * 1000 + step)
    ids = torch.randint(0, 5000, (64, 8), generator=g)
    if os.path.exists(f"events/part{rank}.replayed") and step >= 12:
        ids[:40] = ids[0]          # replayed partition: the same event over and over
    clicks = torch.randint(0, 2, (64,), generator=g).float()
    return ids, clicks


def dup_fraction(ids):
    return 1.0 - len({tuple(r) for r in ids.tolist()}) / len(ids)


def main():
    rank = int(os.environ["RANK"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=12))
    print(f"ctr worker {rank} started")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.EmbeddingBag(5000, 16, mode="sum"), nn.Linear(16, 1)))
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for step in range(50):
        ids, clicks = read_events(rank, step)
        dup = dup_fraction(ids)
        if dup > DUP_LIMIT:
            with open(f"events/guard_{rank}.txt", "w") as f:
                f.write(f"step {step}: duplicate fraction {dup:.2f} > {DUP_LIMIT}\n")
            sys.exit(3)
        loss = nn.functional.binary_cross_entropy_with_logits(model(ids).squeeze(1), clicks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"worker {rank} step {step} logloss {loss.item():.4f} dup {dup:.2f}")
        time.sleep(0.1)
    print(f"worker {rank} done")


if __name__ == "__main__":
    main()
