# Simulated host OOM kill: rank 2 builds an in-memory cache that keeps growing and the kernel's
# OOM killer sends it SIGKILL (done here with os.kill(getpid(), 9)); no Python output at all.
# The others fail with Connection closed in the next all_reduce.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
print(f"worker rank={rank} pid={os.getpid()} starting", flush=True)
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
cache = []
for step in range(40):
    g = torch.randn(512); dist.all_reduce(g)
    if rank == 2:
        cache.append(torch.empty(4 << 20, dtype=torch.uint8))   # 4 MiB per step, never evicted
    if step % 5 == 0:
        print(f"step {step} loss {2.0 / (step + 1):.4f} cache_mb {len(cache) * 4}", flush=True)
    if rank == 2 and step == 17:
        os.kill(os.getpid(), 9)
    time.sleep(0.08)
print("done", flush=True)
