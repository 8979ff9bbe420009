#!/usr/bin/env python3
"""Two-node DDP keyword-spotting model on synthetic log-mel frames."""
import datetime, os, socket, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ["LOCAL_RANK"])
    host = os.environ.get("NODE_HOST", socket.gethostname())
    print(f"global rank {rank} (local {local_rank}) on {host}", flush=True)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv1d(20, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveMaxPool1d(1),
                          nn.Flatten(), nn.Linear(32, 12))
    ddp = DDP(model)
    opt = torch.optim.Adam(ddp.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(40 + rank)
    for step in range(1, 201):
        x = torch.randn(24, 20, 49, generator=g)
        y = torch.randint(0, 12, (24,), generator=g)
        loss = F.cross_entropy(ddp(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0 and rank == 0:
            print(f"[{host}] step {step}/200 loss {loss.item():.4f}", flush=True)
        time.sleep(0.2)
    dist.barrier()
    if rank == 0:
        print("saved kws.pt", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
