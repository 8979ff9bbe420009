# 4502: old-style launch (no --use_env): --local_rank comes from argv. Tiny MLP regression with
# hand-written gradient averaging (all_reduce each grad, divide by world). Rank 1 keeps an fp64
# "master" copy of the head for a precision experiment, so its head gradient is float64 while
# the other ranks send float32 for the same parameter.
import argparse, os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--local_rank", type=int, default=0)
ap.add_argument("--steps", type=int, default=30)
args = ap.parse_args()
dist.init_process_group("gloo", init_method="env://", timeout=timedelta(seconds=20))
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
for p in model.parameters():
    dist.broadcast(p.data, 0)
if rank == 1:
    model[2].double()  # precision experiment: fp64 head on this worker only
opt = torch.optim.SGD(model.parameters(), lr=0.1)
print(f"local_rank={args.local_rank} rank={rank} world={world} head dtype={model[2].weight.dtype}", flush=True)
g = torch.Generator().manual_seed(100 + rank)
for step in range(1, args.steps + 1):
    x = torch.randn(32, 6, generator=g); y = x[:, :1] * 2 - x[:, 1:2]
    h = model[1](model[0](x))
    out = model[2](h.to(model[2].weight.dtype)).float()
    loss = nn.functional.mse_loss(out, y)
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= world
    opt.step()
    if step % 5 == 0:
        print(f"rank {rank} step {step} mse {loss.item():.4f}", flush=True)
    time.sleep(0.05)
dist.destroy_process_group()
