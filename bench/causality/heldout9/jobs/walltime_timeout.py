# Plain training loop with a progress line per 10 iterations. run.sh wraps the launcher in
# `timeout 14` (a wall-time limit); the launcher forwards SIGTERM to every worker; no rank broke.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(64, 64))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for it in range(100000):
    loss = model(torch.randn(32, 64)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if it % 10 == 0:
        print(f"iter {it:6d} | loss {loss.item():.5f} | lr 0.0100", flush=True)
    time.sleep(0.05)
