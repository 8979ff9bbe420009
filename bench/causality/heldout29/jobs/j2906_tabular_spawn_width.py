# Tabular MLP launched with torch.multiprocessing.spawn (4 processes).
# The shard for rank 3 was exported with one extra feature column (27 instead of 26),
# so the first Linear layer fails on rank 3 at its first batch of epoch 1.
import os, datetime
import torch, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD = 4

def shard(rank, epoch):
    width = 27 if (rank == 3 and epoch == 1) else 26
    return torch.randn(64, width), torch.randn(64, 1)

def worker(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29631")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=30))
    model = DDP(torch.nn.Sequential(torch.nn.Linear(26, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    for epoch in range(3):
        x, y = shard(rank, epoch)
        for i in range(0, 64, 16):
            loss = torch.nn.functional.mse_loss(model(x[i:i+16]), y[i:i+16])
            opt.zero_grad(); loss.backward(); opt.step()
        print(f"rank {rank} epoch {epoch} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, nprocs=WORLD, join=True)
