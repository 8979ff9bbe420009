# Fixed number of optimizer steps; batches come from next(it) on each rank's own iterator. Rank 1's
# shard lost 3 files in a re-sync, so its iterator runs out at step 9: StopIteration raised outside
# a for loop (plain traceback). Peers: Connection closed.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
n_batches = 9 if rank == 1 else 12
batches = [torch.randn(8, 16) for _ in range(n_batches)]
it = iter(batches)
w = torch.zeros(16, requires_grad=True)
print(f"rank {rank}: {n_batches} batches in shard, training 12 steps", flush=True)
for step in range(12):
    x = next(it)
    loss = (x @ w - 1).pow(2).mean(); loss.backward()
    dist.all_reduce(w.grad)
    with torch.no_grad():
        w -= 0.01 * w.grad; w.grad.zero_()
    print(f"rank {rank}: step {step} loss {loss.item():.3f}", flush=True)
    time.sleep(0.1)
