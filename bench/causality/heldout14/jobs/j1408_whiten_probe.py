"""Linear probe on frozen embeddings with per-batch ZCA-style whitening (Cholesky of the
batch covariance), trained with DDP across two nodes of 2 workers each."""
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib


class BatchWhiten(nn.Module):
    def forward(self, x):
        xc = x - x.mean(dim=0, keepdim=True)
        cov = xc.T @ xc / (x.size(0) - 1)
        L = torch.linalg.cholesky(cov)
        return torch.linalg.solve_triangular(L, xc.T, upper=False).T


class Probe(nn.Module):
    def __init__(self, d=16, n_cls=4):
        super().__init__()
        self.whiten = BatchWhiten()
        self.fc = nn.Linear(d, n_cls)

    def forward(self, x):
        return self.fc(self.whiten(x))


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    node = os.environ.get("GROUP_RANK", "?")
    print(f"worker rank={rank} local_rank={os.environ['LOCAL_RANK']} node_rank={node} world={world} "
          f"host={socket.gethostname()}", flush=True)
    feats = torch.load(f"emb/features-{rank}.pt")
    x, y = feats["x"], feats["y"]
    model = DDP(Probe(d=x.size(1)))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    bs = 64
    for epoch in range(3):
        for step in range(x.size(0) // bs):
            xb, yb = x[step * bs:(step + 1) * bs], y[step * bs:(step + 1) * bs]
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.05)
        print(f"rank {rank} epoch {epoch} loss {loss.item():.4f}", flush=True)
    dist.barrier()
    print(f"rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
