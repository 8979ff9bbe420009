# A leftover breakpoint() under `if rank == 0` in a non-interactive run (stdin is /dev/null):
# pdb reads EOF and quits with bdb.BdbQuit; the others are waiting in all_reduce.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
model = torch.nn.Linear(10, 1)
for step in range(10):
    loss = model(torch.randn(4, 10)).pow(2).mean(); loss.backward()
    if rank == 0 and step == 5:
        breakpoint()   # TODO remove: checking the loss spike
    for p in model.parameters(): dist.all_reduce(p.grad)
    model.zero_grad()
    print(f"step={step} loss={loss.item():.4f}", flush=True)
    time.sleep(0.1)
