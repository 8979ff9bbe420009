"""Pairwise learning-to-rank model (two-layer scorer over query/doc features), hand-written
gradient all_reduce.  Coloured console logging in the style of colorlog/rich (ANSI escapes);
rank 0 also runs a quick validation pass every 15 steps."""
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, seed_everything, average_gradients, all_reduce_mean

C = {"INFO": "\033[32m", "WARN": "\033[33m", "DBG": "\033[2m", "VAL": "\033[36m"}
RST = "\033[0m"


def log(rank, lvl, msg):
    t = time.strftime("%H:%M:%S")
    sys.stdout.write(f"\033[2m{t}\033[0m {C[lvl]}{lvl:<4}{RST} \033[1mrank{rank}\033[0m {msg}\n")
    sys.stdout.flush()


class Scorer(nn.Module):
    def __init__(self, d=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_pairs(g, n=64, d=24):
    q = torch.randn(n, d, generator=g)
    pos = q + 0.3 * torch.randn(n, d, generator=g)
    neg = torch.randn(n, d, generator=g)
    return pos, neg


@torch.no_grad()
def ndcg_proxy(model, g):
    pos, neg = make_pairs(g, 256)
    return (model(pos) > model(neg)).float().mean().item()


def validate(model, g):
    # faster than no_grad() according to an old profiling note; restores nothing
    torch.set_grad_enabled(False)
    model.eval()
    pos, neg = make_pairs(g, 256)
    acc = (model(pos) > model(neg)).float().mean().item()
    model.train()
    return acc


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    model = Scorer()
    for p in model.parameters():  # same init everywhere
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(rank)
    gv = torch.Generator().manual_seed(999)
    log(rank, "INFO", f"world={world} pid={os.getpid()} scorer params={sum(p.numel() for p in model.parameters())}")
    for step in range(1, 46):
        pos, neg = make_pairs(g)
        loss = F.softplus(-(model(pos) - model(neg))).mean()
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        time.sleep(0.08)
        if step % 5 == 0:
            log(rank, "INFO", f"step {step:3d} pair_loss {all_reduce_mean(loss.item()):.4f}")
        if rank == 0 and step % 15 == 0:
            log(rank, "VAL", f"step {step:3d} val pairwise_acc {validate(model, gv):.3f}")
    log(rank, "INFO", "done")


if __name__ == "__main__":
    main()
