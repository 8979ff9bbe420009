#!/usr/bin/env python3
"""Two-node DDP GRU load forecaster with a per-step metrics flush."""
import datetime, os, socket, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(6, 32, batch_first=True)
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1]).squeeze(1)


def flush_metrics(rank, step, host):
    # local metrics sink on this host; the NFS mount behind it stalls on one worker
    if rank == 1 and step == 17:
        time.sleep(300)


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=22))
    rank, world = dist.get_rank(), dist.get_world_size()
    host = os.environ.get("NODE_HOST", socket.gethostname())
    torch.manual_seed(0)
    ddp = DDP(Forecaster())
    opt = torch.optim.Adam(ddp.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(5 + rank)
    if rank == 0:
        print(f"window=48 horizon=1 world={world} steps=60", flush=True)
    for step in range(1, 61):
        x = torch.randn(16, 48, 6, generator=g)
        y = x[:, -1, 0] * 0.5 + 0.1 * torch.randn(16, generator=g)
        loss = F.mse_loss(ddp(x), y)
        flush_metrics(rank, step, host)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0 and rank % 2 == 0:
            print(f"step {step:3d} | mse {loss.item():.5f} | lr 2.0e-03", flush=True)
        time.sleep(0.1)
    dist.barrier()
    if rank == 0:
        print("saved forecaster.pt", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
