# Plain training loop; the launcher script (run.sh) sends SIGTERM to one rank's process from outside.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
print(f"pid={os.getpid()} rank={rank} world_size={world} backend=gloo", flush=True)
for step in range(60):
    g = torch.randn(128)
    dist.all_reduce(g)
    print(f"rank={rank} step={step} loss={1.0/(step+1):.5f} lr=0.001", flush=True)
    time.sleep(0.25)
