# 5003: hand-written \r progress bar per rank (stderr, flushed), torch.multiprocessing.spawn, 3 ranks.
# Planted fault: rank 1's shard fetch helper waits forever on a shard that never becomes ready
# (no collective); ranks 0 and 2 reach the next all_reduce and hit the 20 s gloo timeout.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.multiprocessing as mp

STEPS = 60
def bar(rank, step, loss):
    n = int(20 * step / STEPS)
    sys.stderr.write("\rrank%d [%s%s] step %d/%d loss=%.3f" % (rank, "#" * n, "." * (20 - n), step, STEPS, loss))
    sys.stderr.flush()

def fetch_shard(rank, idx):
    # a shard is "ready" when its marker exists; rank 1's shard 3 never gets one
    t0 = time.time(); warned = False
    while rank == 1 and idx == 3:
        if not warned and time.time() - t0 > 5:
            print("\nrank%d: shard-%d.pt not ready after 5s, waiting" % (rank, idx), flush=True); warned = True
        time.sleep(0.5)
    return torch.randn(32, 10)

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "30303"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    w = torch.zeros(10, 1, requires_grad=True)
    for step in range(1, STEPS + 1):
        x = fetch_shard(rank, step // 15)
        loss = (x @ w - 1).pow(2).mean()
        loss.backward()
        dist.all_reduce(w.grad); w.grad /= world
        with torch.no_grad():
            w -= 0.05 * w.grad; w.grad.zero_()
        bar(rank, step, loss.item())
        time.sleep(0.05)
    sys.stderr.write("\n")
    print("rank%d finished" % rank, flush=True)

if __name__ == "__main__":
    print("spawning 3 workers", flush=True)
    mp.spawn(worker, args=(3,), nprocs=3)
