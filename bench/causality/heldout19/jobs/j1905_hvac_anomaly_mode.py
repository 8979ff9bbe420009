"""HVAC supply-temperature forecaster: a small 1-D conv net over per-window standardized
sensor windows, DDP under torchrun.  The run was started with detect_anomaly on to chase
an earlier NaN."""
import json
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib


def standardize(w):
    # per-window, per-sensor z-score
    return (w - w.mean(dim=-1, keepdim=True)) / w.std(dim=-1, keepdim=True)


def main():
    rank, world, local = hx19lib.init()
    cfg = json.load(open("config.json"))
    torch.autograd.set_detect_anomaly(cfg["detect_anomaly"])
    arr = np.load(f"data/ahu-{rank:02d}.npy")  # (T, sensors)
    print(f"rank {rank}: ahu-{rank:02d}.npy {arr.shape[0]} samples x {arr.shape[1]} sensors, "
          f"detect_anomaly={cfg['detect_anomaly']}", flush=True)
    series = torch.from_numpy(arr).float().t()
    W = 48
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Conv1d(series.shape[0], 16, 5, padding=2), nn.ReLU(),
                              nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    t0 = time.time()
    for step in range(40):
        starts = [(step * 8 + k) * 12 for k in range(8)]
        xb = torch.stack([standardize(series[:, s:s + W]) for s in starts])
        yb = torch.stack([series[0, s + W] for s in starts]).unsqueeze(1)
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"rank {rank}: step {step} loss {loss.item():.4f} ({time.time() - t0:.1f}s)", flush=True)
        hx19lib.pace(0.1)
    print(f"rank {rank}: done", flush=True)


if __name__ == "__main__":
    main()
