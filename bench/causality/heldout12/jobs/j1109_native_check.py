"""Audio-feature classifier; a native-style sanity hook aborts on corrupted normalisation stats."""
import faulthandler
import os
import sys
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, seed_everything, all_reduce_mean

faulthandler.enable()


def load_stats(rank):
    st = torch.load(f"stats/norm-{rank}.pt")
    return st["mean"], st["std"]


def check_stats(mean, std):
    # mirrors the CHECK() in the extension: a zero std would divide by zero in the kernel
    if (std <= 0).any():
        sys.stderr.write(f"norm_check.cc:41] Check failed: std > 0 ({int((std <= 0).sum())} of {std.numel()} channels)\n")
        sys.stderr.flush()
        os.abort()


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    print(f"pid {os.getpid()} rank {rank}/{world} starting", flush=True)
    mean, std = load_stats(rank)
    model = DDP(TinyMLP(d_in=16, d_out=6))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 81):
        if step == 31:
            # refresh running normalisation stats from the feature server dump
            st = torch.load(f"stats/norm-{rank}-refresh.pt")
            mean, std = st["mean"], st["std"]
            check_stats(mean, std)
            print(f"step {step}: refreshed normalisation stats", flush=True)
        x = (torch.randn(32, 16, generator=g) - mean) / std.clamp_min(1e-6)
        y = torch.randint(0, 6, (32,), generator=g)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.05)
        if step % 10 == 0:
            l = all_reduce_mean(loss.item())
            print(f"step {step} loss {loss.item():.4f} (mean {l:.4f})", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main()
