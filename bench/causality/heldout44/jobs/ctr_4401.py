# 4401: click-through MLP, each worker streams its own parts; worker 3's part 2 was never exported
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
DATA = "/tmp/helper44/data/ctr-4401"

dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=25))
print(f"[{os.uname().nodename}:{rank}/{world}] process group up, job {os.environ.get('SLURM_JOB_ID')} step {os.environ.get('SLURM_STEP_ID')}", flush=True)
torch.manual_seed(0)
model = DDP(torch.nn.Sequential(torch.nn.Linear(12, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)))
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
lossf = torch.nn.BCEWithLogitsLoss()

step = 0
for part in range(3):
    blob = torch.load(os.path.join(DATA, f"clicks-w{rank}-p{part}.pt"))
    x, y = blob["x"], blob["y"]
    if rank == 0:
        print(f"part {part}: {x.shape[0]} rows", flush=True)
    for i in range(0, x.shape[0], 32):
        opt.zero_grad()
        loss = lossf(model(x[i:i + 32]).squeeze(1), y[i:i + 32])
        loss.backward()
        opt.step()
        step += 1
        time.sleep(0.05)
        if step % 4 == 0:
            print(f"rank {rank} step {step} part {part} logloss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
print(f"rank {rank} done", flush=True)
