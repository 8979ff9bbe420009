#!/usr/bin/env python3
"""Tiny tabular regressor, manual gradient averaging, per-rank shards from a sharded index."""
import datetime, os, time
import torch, torch.distributed as dist, torch.nn as nn

BATCH = 32

def shard_sizes(world):
    # shards were written by a preprocessing job; the last shard holds the remainder
    total = 1000
    base = 256
    sizes = [base] * (world - 1)
    sizes.append(total - base * (world - 1))
    return sizes

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    n = shard_sizes(world)[rank]
    g = torch.Generator().manual_seed(100 + rank)
    X = torch.randn(n, 12, generator=g)
    y = X[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g)
    steps = (n + BATCH - 1) // BATCH
    print(f"[rank {rank}] shard rows={n} batches/epoch={steps}", flush=True)
    for epoch in range(2):
        tot, cnt = 0.0, 0
        for i in range(steps):
            xb, yb = X[i * BATCH:(i + 1) * BATCH], y[i * BATCH:(i + 1) * BATCH]
            if xb.shape[0] < BATCH:
                # incomplete tail batch: skip it (keeps batch-norm-free stats comparable)
                continue
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            flat = torch.cat([p.grad.view(-1) for p in model.parameters()])
            dist.all_reduce(flat)
            flat /= world
            off = 0
            for p in model.parameters():
                k = p.numel(); p.grad.copy_(flat[off:off + k].view_as(p)); off += k
            opt.step()
            tot += loss.item() * xb.shape[0]; cnt += xb.shape[0]
            if i % 4 == 0 and rank == 0:
                print(f"epoch {epoch} step {i}/{steps} loss {loss.item():.4f}", flush=True)
        stats = torch.tensor([tot, float(cnt)])
        dist.all_reduce(stats)
        if rank == 0:
            print(f"epoch {epoch} done: train mse {stats[0] / stats[1]:.4f} over {int(stats[1])} rows", flush=True)
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
