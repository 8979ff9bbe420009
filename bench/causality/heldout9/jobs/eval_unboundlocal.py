# Only the eval rank (rank 2, eval_rank in the config) runs evaluation; the eval function sets
# `best` only inside an if, and the first eval has no previous best: UnboundLocalError (Python
# 3.11 wording). Peers: Connection closed.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
eval_rank = 2
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
history = []
def evaluate(step):
    acc = 0.5 + step / 100
    if history and acc > max(history):
        best = acc
    history.append(acc)
    print(f"eval step {step}: acc {acc:.3f} best {best:.3f}", flush=True)

for step in range(1, 25):
    g = torch.randn(300); dist.all_reduce(g)
    if step % 4 == 0:
        print(f"train step {step} loss {4.0 / step:.3f}", flush=True)
    if rank == eval_rank and step % 10 == 0:
        evaluate(step)
    time.sleep(0.08)
