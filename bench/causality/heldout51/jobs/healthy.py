# healthy DDP run with the usual warnings
import os, warnings, torch, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import TensorDataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
x = torch.randn(256, 10); y = torch.tensor(x.sum(1) > 0).long()   # copy-construct UserWarning
dl = DataLoader(TensorDataset(x, y), batch_size=32, num_workers=0)
model = DDP(torch.nn.Sequential(torch.nn.Linear(10, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2)),
            find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 4)
for epoch in range(3):
    sched.step() if epoch == 0 else None   # scheduler before optimizer: UserWarning
    for xb, yb in dl:
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
    t = torch.tensor([loss.item()]); dist.all_reduce(t)
    print(f"epoch {epoch} mean loss {t.item()/dist.get_world_size():.4f}", flush=True)
dist.barrier()
print("done", flush=True)
