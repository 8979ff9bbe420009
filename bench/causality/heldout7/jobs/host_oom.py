# One rank runs out of host memory (address space capped with RLIMIT_AS to make it fail fast).
import os, sys, time, resource
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))

def vm_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

if rank == 0:
    # this rank also builds the eval cache, and its container limit is tight
    lim = vm_bytes() + 300 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

total = 10
t0 = time.time()
for i in range(total):
    x = torch.randn(1024, 64)
    if rank == 0 and i == 4:
        cache = torch.empty(1024, 1024, 512)    # 2 GiB eval feature cache
    dist.all_reduce(x)
    el = time.time() - t0
    pct = int(100 * (i + 1) / total)
    sys.stderr.write(f"\rEpoch 1: {pct:3d}%|{'█' * (pct // 10):<10}| {i+1}/{total} [00:{int(el):02d}<00:{int((total-i-1)*0.3):02d}, {(i+1)/el:.2f}it/s, loss={x.std().item():.3f}]")
    sys.stderr.flush()
    time.sleep(0.3)
sys.stderr.write("\n")
print("epoch done", flush=True)
