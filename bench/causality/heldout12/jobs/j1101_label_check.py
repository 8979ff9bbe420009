"""Per-rank label shards; every batch is validated before the forward pass."""
import os
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, seed_everything, all_reduce_mean

N_CLASSES = 5


def load_shard(rank):
    d = torch.load(f"data/shard{rank}.pt")
    return d["x"], d["y"]


def check_batch(x, y):
    assert x.dim() == 2 and x.shape[1] == 16, f"bad feature shape {tuple(x.shape)}"
    assert torch.isfinite(x).all(), "non-finite features"
    assert int(y.min()) >= 0 and int(y.max()) < N_CLASSES, \
        f"label out of range: min={int(y.min())} max={int(y.max())} (n_classes={N_CLASSES})"


def main():
    rank, world = init_distributed(timeout_s=12)
    seed_everything(1)
    x, y = load_shard(rank)
    print(f"shard{rank}.pt: {len(y)} rows", flush=True)
    model = DDP(TinyMLP(d_out=N_CLASSES))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    step = 0
    for epoch in range(3):
        for i in range(0, len(y), 16):
            xb, yb = x[i:i + 16], y[i:i + 16]
            check_batch(xb, yb)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.05)
            step += 1
            if step % 10 == 0:
                l = all_reduce_mean(loss.item())
                if rank == 0:
                    print(f"epoch {epoch} step {step} mean loss {l:.4f}", flush=True)
    if rank == 0:
        print("training finished", flush=True)


if __name__ == "__main__":
    main()
