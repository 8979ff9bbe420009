# Anomaly detection is on; a bad batch (negative values into log) on one rank makes backward raise.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
torch.autograd.set_detect_anomaly(True)
model = nn.Linear(8, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(10):
    x = torch.rand(4, 8) + 0.1
    if rank == 1 and step == 6:
        x[0, 3] = -2.0                        # unnormalized feature slipped through
    out = model(x.log()).log_softmax(-1)
    loss = -(out * torch.log(x / x.sum(-1, keepdim=True))).sum(-1).mean()
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
    opt.step()
    print(f"rank {rank}/{world} | step {step:3d} | loss {loss.item():.4f}", flush=True)
    time.sleep(0.2)
