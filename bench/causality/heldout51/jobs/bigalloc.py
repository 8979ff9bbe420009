# DDP embedding model; each rank materialises a feature-cache table sized from its shard's vocab
import os, torch, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
vocab = {0: 50_000, 1: 50_000, 2: 12_000_000, 3: 50_000}[rank]  # shard 2 came with an un-pruned vocab
model = DDP(torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(1, 31):
    if step == 10:
        print(f"building feature cache for {vocab} entries", flush=True)
        cache = torch.zeros(vocab, 256)
        print(f"cache ready: {cache.numel()*4/2**20:.0f} MiB", flush=True)
    x = torch.randn(32, 64); y = torch.randint(0, 8, (32,))
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f}", flush=True)
print("done", flush=True)
