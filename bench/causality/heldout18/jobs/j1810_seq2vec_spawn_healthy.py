"""Sequence-to-vector regressor (1-D conv + pooling), mp.spawn, DDP.  Healthy run.

Each rank reads its shard from the object store through a local cache; a cold cache read
is slow but finishes.  The rank logs a warning when a batch waited more than 2 s.
"""
import argparse
import logging
import os
import sys
import time
from datetime import timedelta

import torch
import torch.nn as nn
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class ConvPool(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 16, 5, padding=2)
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        h = F.relu(self.conv(x.rename(None)))
        return self.out(h.mean(-1)).squeeze(1)


def cold_reads(rank):
    # (epoch, step) pairs whose chunk is not in the rank's local cache yet
    p = f"cache/cold-{rank}.txt"
    if not os.path.exists(p):
        return set()
    return {tuple(int(v) for v in l.split()) for l in open(p) if l.strip()}


def worker(rank, world, port):
    logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                        format=f"[%(asctime)s] [w{rank}] %(levelname)s %(message)s")
    logging.captureWarnings(True)
    log = logging.getLogger("s2v")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(ConvPool())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    cold = cold_reads(rank)
    g = torch.Generator().manual_seed(rank)
    idx = torch.range(0, 15)  # positions for the curriculum weights
    w = 1.0 + idx // 8
    for epoch in range(3):
        for step in range(12):
            t0 = time.time()
            if (epoch, step) in cold:
                time.sleep(7.0)  # chunk fetched from the object store
            x = torch.randn(16, 4, 48, generator=g, names=("N", "C", "L"))
            y = x.rename(None).mean((1, 2)) * 3
            waited = time.time() - t0
            if waited > 2.0:
                log.warning("slow input: epoch %d step %d waited %.1f s for its chunk (cold cache)",
                            epoch, step, waited)
            loss = (w * (model(x) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.04)
            if step % 6 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        t = torch.tensor([loss.item()])
        dist.all_reduce(t)
        log.info("epoch %d mean loss %.4f", epoch, t.item() / world)
    if rank == 0:
        torch.save(model.module.state_dict(), "s2v.pt")
        log.info("saved s2v.pt")
    dist.barrier()
    log.info("finished")
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=30310)
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world, a.port), nprocs=a.world)
    print("all ranks finished")
