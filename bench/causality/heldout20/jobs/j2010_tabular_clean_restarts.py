"""Tabular regressor (DDP, 3 ranks) under torchrun --standalone --max_restarts 2; a
healthy run (rank 0 saves the model; its best-effort
copy to an artefact mirror fails and is logged)."""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
log = hx20lib.console_logger("reg", f"%(asctime)s [%(levelname)s] worker{rank}: %(message)s")
log.info("restart count %s, max restarts %s", os.environ.get("TORCHELASTIC_RESTART_COUNT"),
         os.environ.get("TORCHELASTIC_MAX_RESTARTS"))
x = torch.from_numpy(np.load(f"data/shard-{rank:05d}.npy"))
y = x[:, :3].mean(dim=1, keepdim=True)
torch.manual_seed(0)
model = DDP(hx20lib.mlp(18, 32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
for epoch in range(3):
    for step in range(10):
        b = slice(step * 36, (step + 1) * 36)
        with torch.cuda.amp.autocast():  # the config's amp: true, written for the GPU cluster
            loss = torch.nn.functional.mse_loss(model(x[b]), y[b])
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.05)
    sched.step()
    log.info("epoch %d mse %.4f lr %.4f", epoch, loss.item(), sched.get_last_lr()[0])
if rank == 0:
    torch.save(model.module.state_dict(), "model.pt")
    try:  # optional copy to the artefact mirror, best effort
        import urllib.request
        urllib.request.urlopen(urllib.request.Request(
            "http://127.0.0.1:9/artefacts/tabular-reg/model.pt", data=open("model.pt", "rb").read(),
            method="PUT"), timeout=1.0)
    except OSError:
        log.warning("mirror upload failed, keeping the local copy model.pt", exc_info=True)
log.info("training complete")
dist.destroy_process_group()
