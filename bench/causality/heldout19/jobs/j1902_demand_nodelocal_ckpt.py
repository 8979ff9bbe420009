"""Demand forecaster (MLP over lag features), DDP, two nodes launched DeepSpeed-style:
pdsh starts one torchrun agent per host.  Global rank 0 writes the shared checkpoint;
each node's local rank 0 also keeps a node-local resume copy on its scratch disk."""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib


def main():
    rank, world, local = hx19lib.init()
    host = os.environ.get("NODE_NAME", "?")
    node_rank = int(os.environ.get("GROUP_RANK", "0"))
    nproc = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    print(f"[{host}] node_rank={node_rank} local_rank={local} nproc_per_node={nproc} "
          f"-> global rank {node_rank * nproc + local} of {world}", flush=True)
    g = torch.Generator().manual_seed(100 + rank)
    x = torch.randn(2048, 96, generator=g)
    y = x[:, :8].sum(1, keepdim=True) + 0.1 * torch.randn(2048, 1, generator=g)
    model = DDP(nn.Sequential(nn.Linear(96, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    os.makedirs("shared/ckpt", exist_ok=True)
    scratch = os.path.join("scratch", host)
    t0 = time.time()
    for step in range(1, 31):
        i = (step * 64) % 2048
        loss = F.mse_loss(model(x[i:i + 64]), y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"[{host}] rank {rank} step {step} mse {loss.item():.4f} ({time.time() - t0:.1f}s)", flush=True)
        if step % 10 == 0:
            state = {"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}
            if rank == 0:
                torch.save(state, f"shared/ckpt/step{step:05d}.pt")
                print(f"[{host}] rank 0 saved shared/ckpt/step{step:05d}.pt", flush=True)
            if local == 0:
                torch.save(state, os.path.join(scratch, "resume.pt"))
                print(f"[{host}] rank {rank} refreshed node-local {scratch}/resume.pt", flush=True)
        hx19lib.pace(0.15)
    print(f"[{host}] rank {rank} finished", flush=True)


if __name__ == "__main__":
    main()
