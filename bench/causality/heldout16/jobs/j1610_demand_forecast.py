"""Demand forecaster (MLP over lag features) with hand-written gradient all_reduce and a
metrics push to a tracking server from rank 0.  Started once per rank by GNU parallel."""
import logging
import os
import socket
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients, all_reduce_mean, seed_everything

logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s | %(levelname)s | %(name)s | %(message)s")
log = logging.getLogger("forecast")


class Forecaster(nn.Module):
    def __init__(self, lags=28, d=64):
        super().__init__()
        self.fc1 = nn.Linear(lags, d)
        self.fc2 = nn.Linear(d, d)
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        h = F.tanh(self.fc1(x))
        h = F.sigmoid(self.fc2(h)) * h
        return self.out(h)


def push_metrics(step, loss):
    # the tracking server is optional; a failed push is logged and training goes on
    s = socket.create_connection(("127.0.0.1", 30199), timeout=1)
    s.sendall(f"loss {step} {loss}\n".encode())
    s.close()


def main():
    rank, world = init_distributed(timeout_s=20)
    seed_everything(17)
    model = Forecaster()
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(rank)
    series = torch.cumsum(torch.randn(3000, generator=g), 0)
    series = (series - series.mean()) / series.std()
    log.info("rank %d: %d days of history, lags=28, horizon=1", rank, len(series))
    best, bad = float("inf"), 0
    for epoch in range(4):
        for step in range(40):
            idx = torch.randint(28, len(series) - 1, (32,), generator=g)
            x = torch.stack([series[i - 28:i] for i in idx.tolist()])
            y = series[idx]
            loss = F.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            norm = nn.utils.clip_grad_norm(model.parameters(), 5.0)
            if norm > 5.0:
                log.warning("rank %d: grad norm %.1f > 5.0, clipped", rank, norm)
            average_gradients(model)
            opt.step()
            time.sleep(0.02)
        val = all_reduce_mean(loss.item())
        if rank == 0:
            log.info("epoch %d train_mse %.3f", epoch, val)
            try:
                push_metrics(epoch, val)
            except OSError:
                log.warning("metrics push to tracking server failed, continuing without it", exc_info=True)
        if val < best:
            best, bad = val, 0
        else:
            bad += 1
            if rank == 0:
                log.warning("train_mse did not improve (patience %d/3)", bad)
    if rank == 0:
        torch.save(model.state_dict(), "forecaster.pt")
        log.info("saved forecaster.pt (best train_mse %.3f)", best)
    torch.distributed.barrier()
    log.info("rank %d finished", rank)


if __name__ == "__main__":
    main()
