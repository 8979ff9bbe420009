# 4901: torchrun --tee 3. Rank 1 reads a local config copy where stats_sync="broadcast",
# so at the first stats-sync step it calls dist.broadcast while the others call all_reduce.
import os, json, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(0)
cfg = {"stats_sync": "all_reduce", "sync_every": 10, "steps": 40, "lr": 0.05}
if rank == 1:
    cfg["stats_sync"] = "broadcast"   # stale node-local copy of the config
print(f"rank {rank}/{world} config {json.dumps(cfg)}", flush=True)
model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
g = torch.Generator().manual_seed(100 + rank)
running = torch.zeros(16)
for step in range(1, cfg["steps"] + 1):
    x = torch.randn(32, 16, generator=g); y = x[:, :4].sum(1, keepdim=True)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    running += x.mean(0)
    if step % 5 == 0 and rank == 0:
        print(f"step {step:3d} loss {loss.item():.4f}", flush=True)
    if step % cfg["sync_every"] == 0:
        stats = running / step
        if cfg["stats_sync"] == "broadcast":
            dist.broadcast(stats, src=0)
        else:
            dist.all_reduce(stats); stats /= world
        if rank == 0:
            print(f"step {step:3d} synced feature mean norm {stats.norm().item():.4f}", flush=True)
dist.barrier()
print(f"rank {rank} done", flush=True)
dist.destroy_process_group()
