"""Credit-default MLP on tabular parts (DDP), two torchrun agents as two nodes (2 workers
each, c10d rendezvous).  The input width is taken from the part file itself."""
import os
import socket
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
node = os.environ.get("GROUP_RANK")
log = hx20lib.console_logger(
    "credit", f"%(asctime)s | node{node}/local{hx20lib.local_rank()} | %(levelname)-7s | %(message)s",
    stream=__import__("sys").stdout)
x = torch.from_numpy(np.load(f"data/part-{rank}.npy"))
y = torch.from_numpy(np.load(f"data/target-{rank}.npy"))
log.info("global rank %d of %d on %s: part-%d %s", rank, world, socket.gethostname(), rank, tuple(x.shape))
torch.manual_seed(0)
model = DDP(hx20lib.mlp(x.shape[1], 64, 2))
log.info("model ready: %d parameters", sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for step in range(16):
        b = slice(step * 32, (step + 1) * 32)
        loss = torch.nn.functional.cross_entropy(model(x[b]), y[b])
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.03)
    log.info("epoch %d loss %.4f", epoch, loss.item())
dist.destroy_process_group()
