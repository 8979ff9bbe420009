"""Audio-event classifier over spectrogram patches (DDP, 4 ranks), torchrun
--max_restarts 1 --log_dir --redirects 3 --tee 3.  Curriculum: epoch 0 trains on the
short clips, later epochs on the long clips."""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT")
print(f"audio-cls worker {rank}/{world} attempt {attempt} pid {os.getpid()}", flush=True)
torch.manual_seed(0)
model = DDP(hx20lib.mlp(40, 64, 6))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
labels = torch.from_numpy(np.load(f"data/labels-{rank}.npy"))
for epoch in range(3):
    part = "short" if epoch == 0 else "long"
    x = torch.from_numpy(np.load(f"data/{part}-{rank}.npy"))
    for step in range(10):
        b = slice(step * 32, (step + 1) * 32)
        loss = torch.nn.functional.cross_entropy(model(x[b]), labels[b])
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.05)
    print(f"worker {rank}: epoch {epoch} loss {loss.item():.4f}", flush=True)
print(f"worker {rank}: done", flush=True)
dist.destroy_process_group()
