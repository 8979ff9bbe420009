# Tokenized-dataset cache guarded by a lock file (filelock-style polling). A crashed earlier run
# left rank 2's node-local lock behind, so rank 2 waits forever "Waiting for lock"; the others
# time out in the barrier after 8 s; run.sh's launcher then SIGTERMs the stuck rank.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
cache = os.path.join(os.environ["CACHE_ROOT"], f"node{rank}")
os.makedirs(cache, exist_ok=True)
dist.init_process_group("gloo", timeout=timedelta(seconds=8))
lock = os.path.join(cache, "tokenized_train.arrow.lock")
print(f"Loading cached tokenized dataset from {cache}", flush=True)
t0 = time.time()
while True:
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY); break
    except FileExistsError:
        if int(time.time() - t0) % 5 == 0:
            print(f"Waiting for lock {lock} ({time.time() - t0:.0f}s)", flush=True)
        time.sleep(1)
os.close(fd); os.remove(lock)
print("dataset ready: 18432 examples", flush=True)
dist.barrier()
for step in range(10):
    g = torch.randn(100); dist.all_reduce(g)
    time.sleep(0.05)
print("done", flush=True)
