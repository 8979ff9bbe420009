"""Text-feature classifier; after each epoch rank 0 alone evaluates on the validation set
(confusion matrix), the other ranks wait in dist.barrier().  Planted fault: the validation
labels contain a class id (5) outside the 5 training classes, so rank 0's confusion-matrix
reshape raises; ranks 1-3 fail only as collateral at the barrier."""
import datetime, os
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
torch.manual_seed(0)
NC = 5
model = DDP(nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, NC)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator().manual_seed(100 + rank)
if rank == 0:
    print(f"train: 4 x 160 samples/rank, {NC} classes; val: 300 samples", flush=True)

def evaluate():
    gv = torch.Generator().manual_seed(7)
    xv = torch.randn(300, 40, generator=gv)
    yv = torch.randint(0, NC, (300,), generator=gv); yv[::37] = 5  # planted: stray label id
    model.eval()
    with torch.no_grad():
        pred = model.module(xv).argmax(1)
    model.train()
    cm = torch.bincount(yv * NC + pred, minlength=NC * NC).view(NC, NC)
    acc = cm.diag().sum().item() / cm.sum().item()
    return acc, cm

for epoch in range(2):
    for it in range(10):
        x = torch.randn(16, 40, generator=g); y = torch.randint(0, NC, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if it % 3 == 0:
            print(f"rank {rank} epoch {epoch} iter {it:2d} loss {loss.item():.4f}", flush=True)
    if rank == 0:
        print(f"epoch {epoch}: running validation on rank 0", flush=True)
        acc, cm = evaluate()
        print(f"epoch {epoch}: val acc {acc:.4f}", flush=True)
    dist.barrier()
print(f"rank {rank} done", flush=True)
dist.destroy_process_group()
