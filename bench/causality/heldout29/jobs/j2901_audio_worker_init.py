# Audio-clip classifier; each DataLoader worker opens its own per-rank shard index
# in worker_init_fn. On rank 1 the index for worker 1 is missing -> the worker raises,
# DataLoader re-raises in the main process of rank 1.
import os, datetime, time
import torch, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader, DistributedSampler
from torch.nn.parallel import DistributedDataParallel as DDP

class Clips(Dataset):
    def __len__(self): return 512
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.randn(64, generator=g), i % 5

def worker_init(wid):
    info = torch.utils.data.get_worker_info()
    rank = int(os.environ["RANK"])
    path = f"/tmp/helper29/clipidx/rank{rank}_w{wid}.idx"
    if not (rank == 1 and wid == 1):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").write("ok\n")
    with open(path) as f:
        info.dataset.index = f.read()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 5)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ds = Clips()
    dl = DataLoader(ds, batch_size=16, sampler=DistributedSampler(ds), num_workers=2,
                    worker_init_fn=worker_init)
    for epoch in range(2):
        for step, (x, y) in enumerate(dl):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 4 == 0:
                print(f"rank {rank} epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
