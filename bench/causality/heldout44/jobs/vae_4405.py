# 4405: small VAE on synthetic 8x8 patches; a per-process RSS guard kills the process when it exceeds its budget
import os
import signal
import sys
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * PAGE / 2**20


def rss_guard(budget_mb):
    while True:
        r = rss_mb()
        if r > budget_mb:
            sys.stderr.write(f"rss-guard[{os.getpid()}]: resident {r:.0f} MiB > budget {budget_mb:.0f} MiB, sending SIGKILL to self\n")
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.2)


dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=25))
budget = rss_mb() + 160
threading.Thread(target=rss_guard, args=(budget,), daemon=True).start()
print(f"task {rank}/{world} pid {os.getpid()} rss budget {budget:.0f} MiB")


class VAE(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.Linear(64, 2 * 8)
        self.dec = torch.nn.Sequential(torch.nn.Linear(8, 64), torch.nn.Sigmoid())

    def forward(self, x):
        mu, logv = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logv).exp()
        return self.dec(z), mu, logv


torch.manual_seed(0)
model = DDP(VAE())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(rank)
recon_history = []   # rank 0 keeps full reconstructions for the end-of-run sample grid
for step in range(120):
    x = torch.rand(512, 64, generator=g)
    opt.zero_grad()
    xr, mu, logv = model(x)
    rec = torch.nn.functional.binary_cross_entropy(xr, x, reduction="sum") / x.shape[0]
    kl = -0.5 * torch.mean(torch.sum(1 + logv - mu.pow(2) - logv.exp(), dim=1))
    (rec + kl).backward()
    opt.step()
    if rank == 0:
        recon_history.append(xr.detach().repeat(40, 1))   # ~5 MiB per step
    time.sleep(0.05)
    if step % 10 == 0:
        print(f"task {rank} step {step} rec {rec.item():.2f} kl {kl.item():.3f} rss {rss_mb():.0f} MiB")
dist.destroy_process_group()
print(f"task {rank} finished")
