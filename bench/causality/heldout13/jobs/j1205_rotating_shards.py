"""Audio-frame classifier; each epoch every rank moves on to the next shard
(shard = rank + epoch * world), so all shards are seen by all ranks over time."""
import os
import time

import numpy as np
import torch
import torch.nn as nn

from trainlib import init_distributed, average_gradients


def open_shard(idx):
    path = f"data/frames/part-{idx:05d}.npy"
    with open(path, "rb") as f:
        arr = np.load(f)
    return torch.from_numpy(arr)


def main():
    rank, world = init_distributed(timeout_s=12)
    print(f"rank {rank} of {world} up, pid {os.getpid()}")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv1d(1, 8, 5), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(3):
        idx = rank + epoch * world
        print(f"rank {rank} epoch {epoch}: loading shard {idx}")
        data = open_shard(idx)
        for i in range(0, len(data), 8):
            x = data[i:i + 8].unsqueeze(1)
            y = (x.mean(dim=(1, 2)) > 0).long() + 2 * (x.std(dim=(1, 2)) > 1).long()
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            time.sleep(0.04)
        print(f"rank {rank} epoch {epoch} done, last loss {loss.item():.4f}")
    print(f"rank {rank} finished")


if __name__ == "__main__":
    main()
