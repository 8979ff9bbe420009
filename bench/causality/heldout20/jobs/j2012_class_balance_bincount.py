"""Image-tag classifier with class-balanced loss weights (DDP, 4 ranks) under torchrun
--max_restarts 1 with LOGLEVEL=INFO.  At each epoch start the ranks sum their label
histograms with all_reduce to get the global class frequencies."""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

NUM_CLASSES = 10
rank, world = hx20lib.init()
x = torch.from_numpy(np.load(f"data/feats-{rank}.npy"))
y = torch.from_numpy(np.load(f"data/tags-{rank}.npy"))
print(f"tagger rank {rank}: {len(y)} images, attempt {os.environ.get('TORCHELASTIC_RESTART_COUNT')}", flush=True)
torch.manual_seed(0)
model = DDP(hx20lib.mlp(24, 48, NUM_CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    counts = torch.bincount(y).float()
    dist.all_reduce(counts)
    weight = counts.sum() / (NUM_CLASSES * counts.clamp(min=1))
    for step in range(12):
        b = slice(step * 32, (step + 1) * 32)
        loss = torch.nn.functional.cross_entropy(model(x[b]), y[b], weight=weight)
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.04)
    print(f"tagger rank {rank}: epoch {epoch} loss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
