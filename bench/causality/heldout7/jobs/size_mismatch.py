# One rank's model has an extra output unit, so its flattened gradient is longer in all_reduce.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=10))
num_classes = 11 if rank == 1 else 10    # this rank read a stale label map
model = nn.Linear(64, num_classes)
print(f"model built: {sum(p.numel() for p in model.parameters())} parameters", flush=True)
for step in range(5):
    loss = model(torch.randn(4, 64)).logsumexp(1).mean()
    loss.backward()
    flat = torch.cat([p.grad.flatten() for p in model.parameters()])
    dist.all_reduce(flat)
    print(f"step {step} loss {loss.item():.4f}", flush=True)
    model.zero_grad()
    time.sleep(0.2)
