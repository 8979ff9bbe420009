# DDP regression on per-rank shards; the loop runs over the rank's own loader (no DistributedSampler padding)
import os, torch, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import TensorDataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
torch.manual_seed(rank)
# shard sizes as written by the preprocessing step; shard 2 lost rows when dedup ran after split
sizes = {0: 640, 1: 640, 2: 448, 3: 640}
n = sizes[rank]
x = torch.randn(n, 16); y = x.sum(1, keepdim=True)
dl = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
print(f"rank {rank}: shard has {n} samples, {len(dl)} batches/epoch", flush=True)
model = DDP(torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
step = 0
for epoch in range(1):
    for xb, yb in dl:
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step(); step += 1
        if step % 5 == 0:
            print(f"rank {rank}: epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
print(f"rank {rank}: training finished, {step} steps", flush=True)
torch.save(model.module.state_dict(), f"/tmp/h51_uneven_r{rank}.pt")
print(f"rank {rank}: saved model, bye", flush=True)
