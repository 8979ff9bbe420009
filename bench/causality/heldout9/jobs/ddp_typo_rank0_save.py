# tqdm bar on rank 0 only (disable=rank != 0). Every 25 steps rank 0 saves the model with a typo'd
# attribute ('moduel'): only rank 0 runs that line, so only it raises AttributeError; the others
# fail with Connection closed in DDP's backward all-reduce.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from tqdm import tqdm

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
out = os.environ.get("OUT_DIR", "/tmp")
for step in tqdm(range(60), desc="train", disable=rank != 0):
    x = torch.randn(32, 16); y = x.sum(1, keepdim=True)
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    time.sleep(0.05)
    if rank == 0 and step > 0 and step % 25 == 0:
        torch.save(model.moduel.state_dict(), os.path.join(out, f"model_{step}.pt"))
if rank == 0:
    print("saved final model")
