"""POS tagger over pre-computed token features (DDP, 3 ranks), run by torchrun --max_restarts 2."""
import json
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
log = hx20lib.console_logger("tagger", f"%(asctime)s %(levelname)s [r{rank}] %(message)s")
log.info("start: world=%d restart_count=%s", world, os.environ.get("TORCHELASTIC_RESTART_COUNT"))

x = torch.from_numpy(np.load(f"data/shard-{rank:05d}.npy"))
meta = json.load(open(f"data/shard-{rank:05d}.meta.json"))
log.info("shard %05d: %d rows, exporter %s", rank, x.shape[0], meta["exporter"])
y = (x[:, :12].argmax(dim=1))
torch.manual_seed(0)
model = DDP(hx20lib.mlp(24, 48, 12))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
bs = 32
for epoch in range(3):
    for step in range(x.shape[0] // bs):
        xb, yb = x[step * bs:(step + 1) * bs], y[step * bs:(step + 1) * bs]
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.05)
        if step % 4 == 3:
            done = 100.0 * (step + 1) * bs / meta["num_rows"]
            log.info("epoch %d step %d loss %.4f (%.0f%% of shard)", epoch, step + 1, loss.item(), done)
log.info("done")
dist.destroy_process_group()
