"""Vibration anomaly regressor (1-D conv over sensor windows).  Gradients are clipped per
worker (error_if_nonfinite=True, to catch bad data early) before a hand-written all_reduce.
Python logging with the process id, as the plant's logging config has it."""
import logging
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, seed_everything, average_gradients

logging.basicConfig(level=logging.INFO,
                    format="[%(asctime)s] p%(process)d %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("vibe")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(3, 16, 7, padding=3)
        self.c2 = nn.Conv1d(16, 16, 7, padding=3)
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc(F.relu(self.c2(F.relu(self.c1(x)))).mean(-1)).squeeze(-1)


def main():
    torch.set_num_threads(1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    arr = np.load(f"windows/site{rank:02d}.npy")
    x = torch.from_numpy(arr[:, :3].copy())
    y = torch.from_numpy(arr[:, 3].mean(-1).copy())
    log.info("loaded %s: %d windows, max |x| %.3g", f"site{rank:02d}.npy", len(x), x.abs().max().item())
    model = Net()
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    bs = 16
    for step in range(len(x) // bs):
        xb, yb = x[step * bs:(step + 1) * bs], y[step * bs:(step + 1) * bs]
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
        average_gradients(model)
        opt.step()
        time.sleep(0.05)
        if step % 4 == 0:
            log.info("step %d loss %.5f grad_norm %.3f", step, loss.item(), gn.item())
    log.info("finished")


if __name__ == "__main__":
    main()
