# One rank's (simulated) native extension crashes: SIGSEGV raised in-process, no faulthandler,
# so the rank prints nothing. Run under launch.py --report.
import os, time, signal
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
print(f"worker {rank}: ready", flush=True)
for step in range(12):
    g = torch.randn(80); dist.all_reduce(g)
    if step % 3 == 0:
        print(f"worker {rank}: step {step} grad_norm={g.norm().item():.2f}", flush=True)
    if rank == 1 and step == 7:
        signal.raise_signal(signal.SIGSEGV)     # stands in for a crash in a C extension
    time.sleep(0.1)
print(f"worker {rank}: finished", flush=True)
