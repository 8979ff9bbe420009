"""Attention-pooling classifier; healthy run that trips a few common PyTorch warnings
(softmax without dim, scheduler stepped before the optimizer, tensor re-wrapping)."""
import os
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients, all_reduce_mean


class AttnPool(nn.Module):
    def __init__(self, d=24, n_cls=5):
        super().__init__()
        self.score = nn.Linear(d, 1)
        self.out = nn.Linear(d, n_cls)

    def forward(self, x):                       # x: (B, T, d)
        w = F.softmax(self.score(x).squeeze(-1))  # legacy call, no dim=
        return self.out((w.unsqueeze(-1) * x).sum(1))


def main():
    rank, world = init_distributed(timeout_s=12)
    print(f"rank {rank}: world {world}")
    torch.manual_seed(0)
    model = AttnPool()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)
    sched.step()                                   # "resume" bookkeeping, before any opt.step()
    if rank == 0:
        warnings.warn("config key 'fp16' is deprecated and will be removed in v0.9; use 'precision'",
                      FutureWarning)
    g = torch.Generator().manual_seed(rank)
    for step in range(40):
        x = torch.randn(8, 10, 24, generator=g)
        y = torch.tensor(torch.randint(0, 5, (8,), generator=g))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        sched.step()
        if step % 10 == 9:
            m = all_reduce_mean(loss.item())
            if rank == 0:
                print(f"step {step + 1} mean loss {m:.4f} lr {sched.get_last_lr()[0]:.4f}")
        time.sleep(0.03)
    torch.distributed.barrier()
    print(f"rank {rank}: training complete")


if __name__ == "__main__":
    main()
