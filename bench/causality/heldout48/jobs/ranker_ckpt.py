# 4802: launched by hand with env vars; each rank saves its optimizer shard with pickle every 10 steps
import os, sys, time, pickle
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
ckpt_dir = os.environ["CKPT_DIR"]
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
print(f"rank {rank}: joined process group ({world} ranks)")
torch.manual_seed(1)
model = DDP(nn.Sequential(nn.Linear(48, 96), nn.ReLU(), nn.Linear(96, 1)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(100 + rank)
for step in range(1, 41):
    x = torch.randn(64, 48, generator=g); y = torch.randn(64, 1, generator=g)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"rank {rank}: step {step}/40 loss={loss.item():.4f}")
    if step % 10 == 0:
        path = os.path.join(ckpt_dir, f"optim-shard-{rank:02d}-step{step:04d}.pkl")
        state = {k: (v.numpy() if torch.is_tensor(v) else v) for k, v in opt.state_dict()["state"][0].items()}
        with open(path, "wb") as f:
            pickle.dump({"step": step, "rank": rank, "state": state, "model": {k: v.numpy() for k, v in model.state_dict().items()}}, f)
        print(f"rank {rank}: saved {path}")
        dist.barrier()
    time.sleep(0.05)
print(f"rank {rank}: done")
dist.destroy_process_group()
