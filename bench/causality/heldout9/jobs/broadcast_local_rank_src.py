# Two "nodes" of two ranks (LOCAL_RANK = RANK % 2, set by run.sh). Each epoch the main process
# broadcasts a shuffle seed. The bug is `src = rank if local_rank == 0 else 0`: on rank 2 (local
# rank 0 of node 1) it broadcasts from itself while everyone else expects rank 0.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
local_rank = int(os.environ["LOCAL_RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=8))
print(f"rank {rank} (local_rank {local_rank}) ready", flush=True)
for epoch in range(4):
    seed = torch.tensor([1234 + epoch if local_rank == 0 else -1], dtype=torch.int64)
    src = rank if local_rank == 0 else 0
    dist.broadcast(seed, src=src)
    print(f"epoch {epoch}: shuffle seed {seed.item()}", flush=True)
    for it in range(5):
        g = torch.randn(1024); dist.all_reduce(g)
        time.sleep(0.05)
    print(f"epoch {epoch}: done", flush=True)
