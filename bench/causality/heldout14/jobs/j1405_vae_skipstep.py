"""Convolution-free VAE on synthetic 'digits' (8x8), with hand-rolled gradient averaging
(one all_reduce per parameter).  Steps with a non-finite loss are skipped."""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

import trainlib


class VAE(nn.Module):
    def __init__(self, d=64, h=48, z=8):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec1 = nn.Linear(z, h)
        self.dec2 = nn.Linear(h, d)

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        zz = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec2(F.relu(self.dec1(zz))), mu, logvar


def elbo_loss(recon, x, mu, logvar):
    rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return rec + kl


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    data = torch.load(f"data/digits8x8-part{rank}.pt")
    print(f"rank {rank}: {data.shape[0]} images", flush=True)
    trainlib.seed_everything(42)
    model = VAE()
    for p in model.parameters():           # start from identical weights
        dist.broadcast(p.data, src=0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bs, skipped = 32, 0
    for epoch in range(3):
        tot, n = 0.0, 0
        for step in range(data.shape[0] // bs):
            x = data[step * bs:(step + 1) * bs]
            recon, mu, logvar = model(x)
            loss = elbo_loss(recon, x, mu, logvar)
            if not torch.isfinite(loss):
                skipped += 1
                print(f"rank {rank}: non-finite loss at epoch {epoch} step {step}, skipping batch", flush=True)
                continue
            opt.zero_grad()
            loss.backward()
            trainlib.average_gradients(model)
            opt.step()
            tot += loss.item(); n += 1
            if step % 8 == 0:
                print(f"rank {rank} epoch {epoch} step {step} elbo {loss.item():.2f}", flush=True)
            time.sleep(0.03)
        stats = torch.tensor([tot, float(n)])
        dist.all_reduce(stats)
        if rank == 0:
            print(f"epoch {epoch}: mean -elbo {stats[0] / stats[1]:.3f} over {int(stats[1])} steps", flush=True)
        dist.barrier()
    if rank == 0:
        torch.save(model.state_dict(), "vae.pt")
    print(f"rank {rank}: done, skipped {skipped} batches", flush=True)


if __name__ == "__main__":
    main()
