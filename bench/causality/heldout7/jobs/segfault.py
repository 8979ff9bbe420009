# A rank dereferences a bad (near-NULL) pointer in a native helper (ctypes), faulthandler is on.
import os, sys, time, ctypes, faulthandler
from datetime import timedelta
import torch, torch.distributed as dist

faulthandler.enable()
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))

def native_decode(buf_ptr):
    return ctypes.string_at(buf_ptr, 16)

total = 12
t0 = time.time()
for i in range(total):
    x = torch.randn(64)
    dist.all_reduce(x)
    if rank == 3 and i == 5:
        native_decode(0x10)   # bogus pointer from a stale buffer handle
    el = time.time() - t0
    pct = int(100 * (i + 1) / total)
    bar = "#" * (pct // 10)
    print(f"train: {pct:3d}%|{bar:<10}| {i+1}/{total} [{el:05.2f}<00:00, {(i+1)/el:.2f}it/s, loss={x.abs().mean().item():.3f}]", flush=True)
    time.sleep(0.2)
print("training complete", flush=True)
