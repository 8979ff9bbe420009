"""Wind-turbine power-curve regressor, DDP, launched with srun (one output file per task).
Config overrides come from the command line (`--set key=value`)."""
import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib


def load_cfg():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    cfg = json.load(open("config.json"))
    for kv in a.set:
        k, v = kv.split("=", 1)
        d = cfg
        *path, last = k.split(".")
        for p in path:
            d = d[p]
        d[last] = json.loads(v)
    return cfg


def load_part(rank, cfg):
    cache = f"cache/part-{rank}.npy"
    if cfg["data"]["use_cache"] and os.path.exists(cache):
        arr = np.load(cache)
        print(f"part-{rank}: loaded {len(arr)} rows from {cache}", flush=True)
    else:
        arr = np.loadtxt(f"data/part-{rank}.csv", delimiter=",", skiprows=1, dtype=np.float32)
        if cfg["data"]["use_cache"]:
            os.makedirs("cache", exist_ok=True)
            np.save(cache, arr)
        print(f"part-{rank}: parsed {len(arr)} rows from data/part-{rank}.csv", flush=True)
    return torch.from_numpy(arr[:, :-1]), torch.from_numpy(arr[:, -1:])


def main():
    cfg = load_cfg()
    rank, world, local = hx19lib.init()
    print(f"task {rank}/{world} on {os.environ.get('SLURMD_NODENAME')}: config {json.dumps(cfg)}", flush=True)
    x, y = load_part(rank, cfg)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(x.shape[1], 32), nn.SiLU(), nn.Linear(32, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    t0 = time.time()
    for step in range(cfg["steps"]):
        i = (step * 64) % (len(x) - 64)
        loss = F.mse_loss(model(x[i:i + 64]), y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step} mse {loss.item():.4f} ({time.time() - t0:.1f}s)", flush=True)
        hx19lib.pace(0.1)
    print("done", flush=True)


if __name__ == "__main__":
    main()
