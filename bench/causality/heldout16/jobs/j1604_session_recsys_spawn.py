"""Session-based recommender (EmbeddingBag session encoder + item scorer), started with
torch.multiprocessing.spawn.  Item embeddings of every step are kept for an epoch-end
export (the embedding projector dump)."""
import argparse
import logging
import os
import sys
import time
from datetime import timedelta

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS = 20000


class SessionRec(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.items = nn.EmbeddingBag(N_ITEMS, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, N_ITEMS // 20)

    def forward(self, flat, offsets):
        return self.out(torch.tanh(self.proj(self.items(flat, offsets))))


def worker(rank, world, port):
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="%(asctime)s %(processName)s %(levelname)s %(message)s")
    log = logging.getLogger("recsys")
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(5)
    lengths = np.load(f"sessions-w{rank}.npy")
    log.info("session shard loaded: %d sessions, %d interactions", len(lengths), int(lengths.sum()))
    model = SessionRec()
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    export = []
    bs = 32
    t0 = time.time()
    for step in range(len(lengths) // bs):
        lens = torch.from_numpy(lengths[step * bs:(step + 1) * bs]).long()
        flat = torch.randint(0, N_ITEMS, (int(lens.sum()),), generator=g)
        offsets = torch.cat([torch.zeros(1, dtype=torch.long), lens.cumsum(0)[:-1]])
        target = torch.randint(0, N_ITEMS // 20, (bs,), generator=g)
        loss = F.cross_entropy(model(flat, offsets), target)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
            p.grad /= world
        opt.step()
        export.append(model.items.weight[flat].detach())
        time.sleep(0.02)
        if step % 10 == 0:
            log.info("step %d loss %.4f (%.1f steps/s)", step, loss.item(), (step + 1) / (time.time() - t0))
        if step == 120:
            break
    log.info("writing %d export chunks", len(export))
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=30104)
    a = ap.parse_args()
    print(f"spawning {a.world} trainers", flush=True)
    mp.spawn(worker, args=(a.world, a.port), nprocs=a.world, join=True)
    print("all trainers finished", flush=True)
