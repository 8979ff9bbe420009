"""News-click model (DDP, 3 ranks) under plain torchrun; batches are built by a prefetch
thread that looks up article features and hands them over through a queue."""
import json
import logging
import queue
import threading
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import hx20lib

rank, world = hx20lib.init()
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s %(levelname)s %(threadName)s rank{rank}: %(message)s")
log = logging.getLogger("news")
feats = json.load(open(f"data/articles-{rank}.json"))
clicks = open(f"data/clicks-{rank}.txt").read().split()
log.info("%d articles, %d clicks", len(feats), len(clicks))
q = queue.Queue(maxsize=4)


def prefetch():
    for epoch in range(3):
        for i in range(0, len(clicks) - 31, 32):
            xb = torch.tensor([feats[a] for a in clicks[i:i + 32]])
            q.put(xb)


threading.Thread(target=prefetch, name="prefetch", daemon=True).start()
torch.manual_seed(0)
model = DDP(hx20lib.mlp(16, 32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
n = 0
for epoch in range(3):
    for step in range(len(clicks) // 32):
        xb = q.get()
        loss = (model(xb) - xb[:, :1]).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.03)
        n += 1
        if n % 10 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step + 1, loss.item())
log.info("finished")
dist.destroy_process_group()
