"""Small CNN on synthetic 'images' with DDP and a DistributedSampler; tqdm bar on rank 0."""
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler
from tqdm import tqdm


def main():
    rank, local_rank = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=12))
    os.makedirs("pids", exist_ok=True)
    with open(f"pids/rank{rank}.pid", "w") as f:
        f.write(str(os.getpid()))
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.randn(1536, 1, 16, 16, generator=g), torch.randint(0, 10, (1536,), generator=g))
    sampler = DistributedSampler(ds, shuffle=True, seed=0)
    dl = DataLoader(ds, batch_size=16, sampler=sampler)
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                        nn.Flatten(), nn.Linear(32, 10))
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(10):
        sampler.set_epoch(epoch)
        it = tqdm(dl, desc=f"epoch {epoch}", disable=(rank != 0), file=sys.stderr)
        for x, y in it:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.03)  # stand-in for a heavier augmentation pipeline
            it.set_postfix(loss=f"{loss.item():.3f}")
        print(f"[{rank}] epoch {epoch} finished, loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
