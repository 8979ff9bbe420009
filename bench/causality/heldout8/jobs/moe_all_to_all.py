# 8 tiny ranks dispatch tokens with all_to_all_single. One rank's router drops tokens over
# capacity but still reports the pre-drop counts, so its input split sizes do not add up.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
torch.manual_seed(rank)
print(f"expert {rank} up", flush=True)
for step in range(6):
    tokens = torch.randn(world * 4, 8)
    counts = [4] * world
    if rank == 5 and step == 3:
        tokens = tokens[:-3]           # capacity drop; counts not updated
    out_counts = torch.empty(world, dtype=torch.long)
    dist.all_to_all_single(out_counts, torch.tensor(counts))
    recv = torch.empty(int(out_counts.sum()), 8)
    dist.all_to_all_single(recv, tokens, out_counts.tolist(), counts)
    print(f"step {step}: routed {recv.shape[0]} tokens", flush=True)
    time.sleep(0.1)
