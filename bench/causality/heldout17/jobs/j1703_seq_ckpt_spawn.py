"""Sequence classifier (GRU encoder + 2-layer transformer-ish block) with DDP under
mp.spawn(join=False).  Long batches use activation checkpointing to save memory."""
import argparse
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

CKPT_MIN_LEN = 96   # sequences longer than this go through checkpointed blocks


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        return x + self.ff(self.ln(x))


class SeqClassifier(nn.Module):
    def __init__(self, vocab=500, d=32, n_cls=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList([Block(d), Block(d)])
        self.aux = nn.Linear(d, 1)          # length-regression head, only used in warmup
        self.head = nn.Linear(d, n_cls)

    def forward(self, tok, use_ckpt=False):
        h = self.emb(tok)
        for b in self.blocks:
            h = checkpoint(b, h) if use_ckpt else b(h)
        return self.head(h.mean(1))


def shard_lengths(rank, steps):
    # per-rank bucketed lengths, as produced by the length-bucketing sampler
    base = {0: 48, 1: 64, 2: 56, 3: 80}[rank % 4]
    out = []
    for s in range(steps):
        L = base + (s % 4) * 4
        if rank == 3 and s >= 9:
            L = 128          # rank 3's bucket switches to the long-document bucket
        out.append(L)
    return out


def worker(rank, world, port, steps):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(SeqClassifier(), find_unused_parameters=True)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    g = torch.Generator().manual_seed(100 + rank)
    print(f"[rank {rank}] ddp ready, find_unused_parameters=True, ckpt_min_len={CKPT_MIN_LEN}", flush=True)
    for step, L in enumerate(shard_lengths(rank, steps)):
        tok = torch.randint(0, 500, (8, L), generator=g)
        y = torch.randint(0, 5, (8,), generator=g)
        logits = model(tok, use_ckpt=L > CKPT_MIN_LEN)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.15)
        if step % 2 == 0:
            print(f"[rank {rank}] step {step:3d} seq_len {L:4d} loss {loss.item():.4f}", flush=True)
    dist.barrier()
    print(f"[rank {rank}] done", flush=True)
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=4)
    ap.add_argument("--port", type=int, default=30203)
    ap.add_argument("--steps", type=int, default=30)
    a = ap.parse_args()
    print(f"launching {a.world} workers with mp.spawn(join=False)", flush=True)
    ctx = mp.spawn(worker, args=(a.world, a.port, a.steps), nprocs=a.world, join=False)
    for i, p in enumerate(ctx.processes):
        print(f"spawned worker {i} pid={p.pid}", flush=True)
    t0 = time.time()
    while True:
        try:
            if ctx.join(timeout=5):
                break
        except Exception as e:
            print(f"job failed after {time.time() - t0:.1f}s", flush=True)
            for i, p in enumerate(ctx.processes):
                print(f"  worker {i} pid={p.pid} exitcode={p.exitcode}", flush=True)
            raise
        alive = sum(p.is_alive() for p in ctx.processes)
        print(f"supervisor: {alive}/{a.world} workers alive, {time.time() - t0:.0f}s elapsed", flush=True)
    print("all workers finished", flush=True)


if __name__ == "__main__":
    main()
