"""Resume a small CNN classifier from per-rank checkpoints (model + optimizer + sampler
position, one file per rank).  Planted fault: rank 1's resume file was written without
the "optimizer" entry (run.sh strips it after the first run), so rank 1 raises KeyError
while loading; the other ranks block in DDP construction and fail as collateral."""
import argparse, datetime, os, sys
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser(); p.add_argument("--steps", type=int, default=10); p.add_argument("--resume", action="store_true")
p.add_argument("--ckpt-dir", default="resume"); a = p.parse_args()
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
print(f"| distributed init (rank {rank}): env://, world {world}", flush=True)

def net():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
m = net(); opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
start = 0
path = os.path.join(a.ckpt_dir, f"checkpoint-rank{rank}.pth")
if a.resume:
    print(f"[rank {rank}] resuming from {path}", flush=True)
    ck = torch.load(path, map_location="cpu")
    m.load_state_dict(ck["model"])
    opt.load_state_dict(ck["optimizer"])
    start = ck["step"]
    torch.set_rng_state(ck["rng"])
    print(f"[rank {rank}] resumed at step {start}", flush=True)
model = DDP(m)
g = torch.Generator().manual_seed(rank)
for step in range(start + 1, start + a.steps + 1):
    x = torch.randn(32, 1, 28, 28, generator=g); y = torch.randint(0, 10, (32,), generator=g)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0 and step % 2 == 0:
        print(f"Epoch: [0]  [{step:3d}/{start + a.steps}]  loss: {loss.item():.4f}  lr: 0.050000", flush=True)
os.makedirs(a.ckpt_dir, exist_ok=True)
torch.save({"model": m.state_dict(), "optimizer": opt.state_dict(), "step": step, "rng": torch.get_rng_state()}, path)
dist.barrier()
if rank == 0:
    print(f"saved checkpoints to {a.ckpt_dir}/ at step {step}", flush=True)
dist.destroy_process_group()
