# 4407: tabular regression MLP that resumes from its last checkpoint when Slurm restarts the job
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
CKPT = "/tmp/helper44/ckpt-4407.pt"
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=30))
torch.manual_seed(0)
model = DDP(torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.02)
start = 0
if os.path.exists(CKPT):
    st = torch.load(CKPT)
    model.module.load_state_dict(st["model"])
    opt.load_state_dict(st["opt"])
    start = st["step"] + 1
print(f"rank {rank}: restart_count={os.environ.get('SLURM_RESTART_COUNT', '0')} resuming at step {start}", flush=True)
g = torch.Generator().manual_seed(1000 * rank + start)
w = torch.linspace(-1, 1, 10)
for step in range(start, 5000):
    x = torch.randn(64, 10, generator=g)
    y = (x @ w).unsqueeze(1) + 0.1 * torch.randn(64, 1, generator=g)
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    time.sleep(0.1)
    if step % 20 == 0:
        print(f"rank {rank} step {step} mse {loss.item():.4f}", flush=True)
        if rank == 0:
            torch.save({"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}, CKPT + ".tmp")
            os.replace(CKPT + ".tmp", CKPT)
