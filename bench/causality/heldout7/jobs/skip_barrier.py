# A rank skips the end-of-epoch barrier (wrong condition) and goes on writing its predictions;
# the other ranks time out in the barrier.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=10))
is_writer = (rank == world - 1)
for epoch in range(2):
    for step in range(4):
        g = torch.randn(32); dist.all_reduce(g)
        print(f"[ep {epoch}] step {step} g={g.norm().item():.3f}", flush=True)
        time.sleep(0.1)
    if epoch == 1 and is_writer:
        print(f"rank {rank}: writing predictions.jsonl ...", flush=True)
        time.sleep(22)
        print("predictions written", flush=True)
    else:
        dist.barrier()
print("end of training", flush=True)
