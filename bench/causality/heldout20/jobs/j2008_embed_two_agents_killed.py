"""Embedding regressor (DDP, 4 ranks as 2 nodes x 2) with static rendezvous; both agents'
consoles go into one file.  Each worker writes its pid to pids/ (as a job's health
checker would read them)."""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
node = os.environ["GROUP_RANK"]
os.makedirs("pids", exist_ok=True)
open(f"pids/worker-{os.getpid()}.pid", "w").write(f"{rank}\n")
tag = f"[node{node} rank{rank}]"
x = torch.from_numpy(np.load(f"data/shard-{rank:05d}.npy"))
y = torch.tanh(x[:, :8].sum(dim=1, keepdim=True))
print(f"{tag} pid {os.getpid()} shard {x.shape[0]} rows", flush=True)
torch.manual_seed(0)
model = DDP(hx20lib.mlp(32, 128, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(4):
    for step in range(2000 // 64):
        b = slice(step * 64, (step + 1) * 64)
        loss = torch.nn.functional.mse_loss(model(x[b]), y[b])
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.04)
        if step % 10 == 9:
            print(f"{tag} epoch {epoch} step {step + 1} loss {loss.item():.4f}", flush=True)
print(f"{tag} done", flush=True)
dist.destroy_process_group()
