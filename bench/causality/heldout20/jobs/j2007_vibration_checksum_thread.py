"""Vibration regressor (DDP, 4 ranks) under plain torchrun.  The shard's checksum is
verified in a background thread while training starts; a thread cannot stop the process
with an exception, so a mismatch ends it with os._exit(1)."""
import hashlib
import os
import sys
import threading
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
path = f"data/shard-{rank:05d}.npy"


def verify():
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(4096):
            h.update(chunk)
            time.sleep(0.002)  # throttled, not to starve the input pipeline
    want = open(path + ".sha256").read().split()[0]
    if h.hexdigest() != want:
        sys.stderr.write(f"fatal: checksum mismatch for {os.path.basename(path)}, aborting\n")
        sys.stderr.flush()
        os._exit(1)


threading.Thread(target=verify, name="verify", daemon=True).start()
x = torch.from_numpy(np.load(path))
y = x[:, :4].sum(dim=1, keepdim=True)
print(f"{time.strftime('%H:%M:%S')} rank={rank} rows={x.shape[0]} verifying {path} in background", flush=True)
torch.manual_seed(0)
model = DDP(hx20lib.mlp(20, 32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    for step in range(15):
        b = slice(step * 32, (step + 1) * 32)
        loss = torch.nn.functional.mse_loss(model(x[b]), y[b])
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.05)
    print(f"{time.strftime('%H:%M:%S')} rank={rank} epoch={epoch} mse={loss.item():.4f}", flush=True)
dist.destroy_process_group()
