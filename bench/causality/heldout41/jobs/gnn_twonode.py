# 4105: 2 "nodes" x 2 procs; each rank trains on its own graph partition; a local
# guard leaves with sys.exit(3) when its loss is not finite (checked before backward).
import os, sys, time, math
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def partition(rank, step, g):
    x = torch.randn(20, 12, generator=g)
    if rank == 3 and step >= 14:
        x[3, 5] = float("inf")  # partition 3 has an edge weight overflow from step 14 on
    adj = torch.eye(20) + (torch.rand(20, 20, generator=g) > 0.8).float()
    return adj @ x, torch.randint(0, 3, (20,), generator=g)

def main():
    rank = int(os.environ["RANK"]); lrank = int(os.environ["LOCAL_RANK"])
    grp = int(os.environ["GROUP_RANK"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    print(f"node {grp} local {lrank} -> rank {rank}", flush=True)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 3)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 41):
        x, y = partition(rank, step, g)
        loss = nn.functional.cross_entropy(model(x), y)
        if not math.isfinite(loss.item()):
            print(f"rank {rank}: loss is {loss.item()} at step {step}; refusing to continue, exiting with status 3", flush=True)
            sys.exit(3)
        opt.zero_grad(); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9).item()
        opt.step()
        if step % 5 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f} gnorm {gn:.3f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
