"""Fine-tunes a classification head on a pretrained encoder.  The encoder weights are read
from the node-local cache (copied there by the job prologue) to spare the shared filesystem."""
import logging
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
log = logging.getLogger("probe")


def build_encoder():
    return nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128))


def main():
    rank, world = init_distributed(timeout_s=20)
    local_rank = int(os.environ["LOCAL_RANK"])
    seed_everything(8)
    log.info("Job dir: %s", os.getcwd())
    log.info("cfg: encoder=localcache/w{local_rank}/encoder.pt head=linear(128,10) lr=0.01 epochs=3")
    enc = build_encoder()
    path = f"localcache/w{local_rank}/encoder.pt"
    log.info("loading pretrained encoder from %s (%d bytes)", path, os.path.getsize(path))
    state = torch.load(path, map_location="cpu")
    enc.load_state_dict(state)
    for p in enc.parameters():
        p.requires_grad_(False)
    head = DDP(nn.Linear(128, 10))
    opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(3):
        for step in range(30):
            x = torch.randn(64, 32, generator=g)
            y = torch.randint(0, 10, (64,), generator=g)
            with torch.no_grad():
                f = enc(x)
            loss = F.cross_entropy(head(f), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.02)
            if step % 10 == 0:
                log.info("epoch=%d step=%d loss=%.4f", epoch, step, loss.item())
    log.info("done")


if __name__ == "__main__":
    main()
