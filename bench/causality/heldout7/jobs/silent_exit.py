# A rank's input pipeline decides the shard is empty and quits with sys.exit(3), printing nothing.
import os, sys, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
torch.manual_seed(rank)
model = nn.Linear(16, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
print(f"[rank {rank}] world={world} init done, starting training", flush=True)

def batches(n):
    for i in range(n):
        if rank == 2 and i == 6:
            return          # shard ran dry on this rank
        yield torch.randn(8, 16), torch.randn(8, 1)

it = batches(20)
for step in range(20):
    try:
        x, y = next(it)
    except StopIteration:
        sys.exit(3)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad); p.grad /= world
    opt.step()
    print(f"[rank {rank}] step {step} loss {loss.item():.4f}", flush=True)
    time.sleep(0.2)
print(f"[rank {rank}] finished", flush=True)
