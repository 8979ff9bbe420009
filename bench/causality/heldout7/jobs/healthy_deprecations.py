# Healthy two-rank run that completes, emitting a few real deprecation/user warnings on the way.
import os, sys, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3)
op = dist.reduce_op.SUM                       # deprecated alias
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(3))   # no indexing= argument
total = 8
for i in range(total):
    sched.step()                              # called before optimizer.step(): warns on first use
    loss = model(torch.randn(4, 8)).pow(2).mean()
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad, op=op)
    opt.step()
    if rank == 0:
        pct = int(100 * (i + 1) / total)
        sys.stderr.write(f"\r{pct:3d}%|{'#' * (pct // 10):<10}| {i+1}/{total} [00:0{i//3}<00:0{(total-i)//3}, 3.1it/s, loss={loss.item():.3f}]")
        sys.stderr.flush()
    time.sleep(0.2)
if rank == 0:
    sys.stderr.write("\n")
    print("Training completed. Saved final model to ./output/final.pt", flush=True)
dist.destroy_process_group()
