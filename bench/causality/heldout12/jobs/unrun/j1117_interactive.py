"""Long-running run started by hand in a tmux pane; stopped with Ctrl-C."""
import os
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset, seed_everything


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    ds = SyntheticDataset(n=4096, seed=rank)
    model = DDP(TinyMLP(d_hidden=64))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for epoch in range(100):
        for i in range(0, len(ds), 64):
            loss = F.cross_entropy(model(ds.x[i:i + 64]), ds.y[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            time.sleep(0.05)
        if rank == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
