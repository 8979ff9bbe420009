"""Contrastive pretraining with a periodic retrieval eval that all_gathers query embeddings."""
import os
import socket
import time
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, seed_everything, average_gradients


class Encoder(nn.Module):
    def __init__(self, d_in=24, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 48), nn.ReLU(), nn.Linear(48, d))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def eval_queries(rank):
    # each rank owns a slice of the held-out queries listed in queries/rank<k>.txt
    with open(f"queries/rank{rank}.txt") as f:
        ids = [int(l) for l in f if l.strip()]
    g = torch.Generator().manual_seed(1234)
    table = torch.randn(1000, 24, generator=g)
    return table[ids]


def main():
    rank, world = init_distributed(timeout_s=12)
    seed_everything(0)
    print(f"rank {rank} local_rank {os.environ['LOCAL_RANK']} host {os.environ.get('NODE_NAME', socket.gethostname())} pid {os.getpid()}", flush=True)
    enc = Encoder()
    opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    per_rank_q = 8
    for step in range(1, 61):
        a = torch.randn(32, 24, generator=g)
        b = a + 0.1 * torch.randn(32, 24, generator=g)
        za, zb = enc(a), enc(b)
        loss = F.cross_entropy(za @ zb.t() / 0.1, torch.arange(32))
        opt.zero_grad()
        loss.backward()
        average_gradients(enc)
        opt.step()
        time.sleep(0.05)
        if step % 10 == 0:
            with torch.no_grad():
                q = enc(eval_queries(rank))
            gathered = [torch.empty(per_rank_q, q.shape[1]) for _ in range(world)]
            dist.all_gather(gathered, q)
            allq = torch.cat(gathered)
            if rank == 0:
                sim = (allq @ allq.t()).fill_diagonal_(-1).max(1).values.mean()
                print(f"step {step} loss {loss.item():.4f} eval mean-nn-sim {sim:.4f}", flush=True)


if __name__ == "__main__":
    main()
