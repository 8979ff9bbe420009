"""Each rank streams its own part of the dataset; parts are produced by a
separate preprocessing job that drops a .ready marker next to each part when
it is complete. Part 3 of epoch 1 never got its marker."""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients


def say(rank, msg):
    print(f"[Rank {rank}] {time.strftime('%H:%M:%S')} {msg}", flush=True)


def wait_for_part(path, poll=1.0):
    marker = path + ".ready"
    while not os.path.exists(marker):
        time.sleep(poll)


def main():
    rank, world = init_distributed(timeout_s=10)
    say(rank, f"joined group, world size {world}")
    model = TinyMLP()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(3):
        part = f"parts/epoch{epoch}/part-{rank}.pt"
        wait_for_part(part)
        ds = SyntheticDataset(n=128, seed=epoch * 10 + rank)
        loader = torch.utils.data.DataLoader(ds, batch_size=16)
        for i, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            time.sleep(0.05)
        say(rank, f"epoch {epoch} finished, loss {loss.item():.4f}")
    say(rank, "training done")


if __name__ == "__main__":
    main()
