"""Convolutional denoising autoencoder on synthetic 16x16 patches, DDP, launched with the
deprecated torch.distributed.launch --use_env.  Ported from an older GPU script (AMP scaler,
F.upsample, patches read zero-copy from a shared uint8 buffer)."""
import os
import time
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.dec = nn.Conv2d(16, 1, 3, padding=1)

    def forward(self, x):
        h = self.enc(x)
        return self.dec(F.upsample(h, scale_factor=2, mode="nearest"))


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    rng = np.random.default_rng(rank)
    buf = rng.integers(0, 255, size=64 * 16 * 16 * 12, dtype=np.uint8).tobytes()
    patches = torch.from_numpy(np.frombuffer(buf, dtype=np.uint8)).view(-1, 1, 16, 16).float() / 255.0
    print(f"rank {rank}: {patches.shape[0]} patches from shared buffer", flush=True)
    model = DDP(AE())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    scaler = torch.cuda.amp.GradScaler()
    best = float("inf")
    bad_epochs = 0
    for epoch in range(4):
        tot = 0.0
        for i in range(0, len(patches), 64):
            clean = patches[i:i + 64]
            noisy = clean + 0.1 * torch.randn_like(clean)
            loss = F.mse_loss(model(noisy), clean)
            opt.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            tot += loss.item()
            time.sleep(0.05)
        avg = tot / (len(patches) // 64)
        print(f"rank {rank}: epoch {epoch} recon_mse {avg:.5f}", flush=True)
        if avg > best * 0.9:
            bad_epochs += 1
            if rank == 0:
                warnings.warn(f"recon_mse improved by less than 10% ({bad_epochs} epoch(s), best {best:.5f}); consider lowering lr")
        best = min(best, avg)
    torch.distributed.barrier()
    if rank == 0:
        torch.save(model.module.state_dict(), "denoise_ae.pt")
        print("rank 0: saved denoise_ae.pt", flush=True)
    print(f"rank {rank}: training complete", flush=True)


if __name__ == "__main__":
    main()
