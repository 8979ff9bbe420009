# One rank takes a different code path and calls all_gather while the others call all_reduce.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=10))
log_every = 1
for step in range(10):
    metric = torch.tensor([float(step + rank)])
    use_gather = (rank == 2 and step >= 4)    # this rank's config enabled per-rank metric logging
    if use_gather:
        parts = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(parts, metric)
        metric = torch.stack(parts).mean()
    else:
        dist.all_reduce(metric)
        metric /= world
    if step % log_every == 0:
        print(f"rank={rank} step={step} metric={metric.item():.3f}", flush=True)
    time.sleep(0.1)
