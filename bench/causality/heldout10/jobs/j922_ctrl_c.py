import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset


def main():
    rank, world = init_distributed(timeout_s=10)
    ds = SyntheticDataset(n=2048, seed=3)
    sampler = torch.utils.data.distributed.DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True)
    loader = torch.utils.data.DataLoader(ds, batch_size=16, sampler=sampler)
    model = DDP(TinyMLP(d_hidden=96, dropout=0.1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    t0 = time.time()
    for epoch in range(20):
        sampler.set_epoch(epoch)
        for i, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.03)
        if rank == 0:
            print(f"epoch {epoch:3d} | loss {loss.item():.4f} | {time.time() - t0:6.1f}s", flush=True)


if __name__ == "__main__":
    main()
