# DDP image-ish classifier, DataLoader(num_workers=2) reading memory-mapped feature blocks
import os, sys, signal, torch, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import Dataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"])
class Blocks(Dataset):
    def __init__(self, rank): self.rank = rank
    def __len__(self): return 512
    def __getitem__(self, i):
        if self.rank == 3 and i == 300:
            # the mmap'd block file on this host was truncated under us -> SIGBUS on access
            os.kill(os.getpid(), signal.SIGBUS)
        g = torch.Generator().manual_seed(self.rank * 10000 + i)
        return torch.randn(24, generator=g), i % 4
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
print(f"rank={rank} world={dist.get_world_size()} pid={os.getpid()}", flush=True)
dl = DataLoader(Blocks(rank), batch_size=16, num_workers=2)
model = DDP(torch.nn.Sequential(torch.nn.Linear(24, 48), torch.nn.ReLU(), torch.nn.Linear(48, 4)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step, (x, y) in enumerate(dl, 1):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 4 == 0:
        print(f"rank={rank} step={step} loss={loss.item():.4f}", flush=True)
print(f"rank={rank} epoch done", flush=True)
