# A custom collate_fn stacks images; one rank's shard has a sample whose image failed to decode
# (the dataset returns None for it), so torch.stack gets a None. Progress bar drawn with \r.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))

class Images(Dataset):
    def __len__(self): return 40
    def __getitem__(self, i):
        if rank == 2 and i == 29:
            return None, 3            # decode failed: PIL.UnidentifiedImageError swallowed upstream
        return torch.rand(3, 8, 8), i % 5

def collate(batch):
    imgs, labels = zip(*batch)
    return torch.stack(imgs), torch.tensor(labels)

dl = DataLoader(Images(), batch_size=4, collate_fn=collate)
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(192, 5))
for epoch in range(1):
    n = len(dl); t0 = time.time()
    for i, (x, y) in enumerate(dl):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad)
        done = int(20 * (i + 1) / n)
        sys.stdout.write(f"\rEpoch {epoch}: {100*(i+1)//n:3d}%|{'#'*done}{' '*(20-done)}| {i+1}/{n} "
                         f"[{time.time()-t0:.1f}s, loss={loss.item():.3f}]")
        sys.stdout.flush()
        time.sleep(0.15)
    sys.stdout.write("\n")
print("epoch done", flush=True)
