# One rank builds a different model (it read an older config), so DDP's init-time check fails.
import os
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
num_layers = 3 if rank == 3 else 2
print(f"building model with {num_layers} layers", flush=True)
model = nn.Sequential(*[nn.Linear(32, 32) for _ in range(num_layers)])
model = nn.parallel.DistributedDataParallel(model)
print("DDP wrapped", flush=True)
