#!/usr/bin/env python3
"""Two-node DDP churn classifier (tiny MLP, synthetic features)."""
import datetime, os, socket, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class FeatureSchemaDrift(Exception):
    pass


def check_schema(batch_id, cols, host, rank):
    # shard 7 on the second host carries an extra column after a bad export
    if rank == 3 and batch_id == 23:
        raise FeatureSchemaDrift(f"shard part-00007 batch {batch_id}: expected {cols} columns, got {cols + 1} ('tenure_days_v2')")


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=22))
    rank, world = dist.get_rank(), dist.get_world_size()
    host = os.environ.get("NODE_HOST", socket.gethostname())
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2))
    ddp = DDP(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1000 + rank)
    if rank == 0:
        print(f"world_size={world} features=24 batch=64 epochs=1", flush=True)
    for step in range(1, 41):
        check_schema(step, 24, host, rank)
        x = torch.randn(64, 24, generator=g)
        y = (x[:, 0] + 0.3 * x[:, 5] > 0).long()
        loss = F.cross_entropy(ddp(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0 and int(os.environ["LOCAL_RANK"]) == 0:
            print(f"{host} step {step}/40 loss {loss.item():.4f}", flush=True)
        time.sleep(0.15)
    dist.barrier()
    if rank == 0:
        print("epoch done, auc eval skipped", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
