#!/usr/bin/env python3
"""Two-node DDP click-through model: hashed sparse ids + dense features."""
import datetime, os, socket, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class CTR(nn.Module):
    def __init__(self, buckets=4096, dim=16, dense=8):
        super().__init__()
        self.emb = nn.EmbeddingBag(buckets, dim, mode="sum")
        self.mlp = nn.Sequential(nn.Linear(dim + dense, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, ids, offsets, dense):
        return self.mlp(torch.cat([self.emb(ids, offsets), dense], 1)).squeeze(1)


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=24))
    rank, world = dist.get_rank(), dist.get_world_size()
    host = os.environ.get("NODE_HOST", socket.gethostname())
    torch.manual_seed(0)
    ddp = DDP(CTR())
    opt = torch.optim.Adagrad(ddp.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(77 + rank)
    print(f"[{host}] worker up rank={rank}/{world} pid={os.getpid()}", flush=True)
    for step in range(1, 121):
        ids = torch.randint(0, 4096, (256,), generator=g)
        offsets = torch.arange(0, 256, 4)
        dense = torch.randn(64, 8, generator=g)
        y = (torch.rand(64, generator=g) < 0.2).float()
        loss = F.binary_cross_entropy_with_logits(ddp(ids, offsets, dense), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"[{host}] rank {rank} it {step} logloss {loss.item():.4f}", flush=True)
        time.sleep(0.25)
    dist.barrier()
    if rank == 0:
        print("done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
