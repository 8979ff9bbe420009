"""Offline-RL style value learning: each rank preallocates a replay buffer from its config."""
import json
import os
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, seed_everything


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.capacity = capacity
        self.obs_dim = obs_dim
        print(f"allocating replay buffer: capacity={capacity} obs_dim={obs_dim} "
              f"({capacity * obs_dim * 4 / 2**30:.2f} GiB)", flush=True)
        self.raw = bytearray(capacity * obs_dim * 4)
        self.n = 0

    def sample(self, g, bs):
        return torch.randn(bs, self.obs_dim, generator=g)


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    cfg = json.load(open(f"configs/actor-{rank}.json"))
    print(f"actor config: {cfg}", flush=True)
    buf = ReplayBuffer(cfg["buffer_capacity"], cfg["obs_dim"])
    q = DDP(TinyMLP(d_in=cfg["obs_dim"], d_out=4))
    opt = torch.optim.Adam(q.parameters(), lr=3e-4)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 101):
        obs = buf.sample(g, 64)
        target = torch.randn(64, 4, generator=g)
        loss = F.smooth_l1_loss(q(obs), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.04)
        if step % 20 == 0:
            print(f"step {step} td-loss {loss.item():.4f}", flush=True)
    print("finished", flush=True)


if __name__ == "__main__":
    main()
