# Classifier fine-tune; a "drop unreadable images" filter is applied to the images of a batch but
# not to its labels. Only rank 1's shard has an unreadable sample (in its step-6 batch), so its
# logits have 7 rows and its targets 8: cross_entropy raises. Peers hit Connection closed.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.nn.functional as F, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=1e-3)
print(f"loaded shard {rank} with {8 * 12} images", flush=True)

def load_batch(step):
    g = torch.Generator().manual_seed(1000 * rank + step)
    imgs = torch.randn(8, 32, generator=g)
    labels = torch.randint(0, 10, (8,), generator=g)
    ok = torch.ones(8, dtype=torch.bool)
    if rank == 1 and step == 6:
        ok[3] = False           # truncated JPEG in this shard
    return imgs[ok], labels

for step in range(12):
    x, y = load_batch(step)
    loss = F.cross_entropy(ddp(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 2 == 0:
        print(f"epoch 0 step {step:3d} loss {loss.item():.4f}", flush=True)
    time.sleep(0.1)
print("done", flush=True)
