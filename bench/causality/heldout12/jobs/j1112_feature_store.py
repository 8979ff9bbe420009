"""CTR model that pulls side features from a (simulated) remote feature store inside each step."""
import logging
import os
import random
import sys
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, seed_everything

RANK = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"%(asctime)s %(levelname)s [worker:{RANK}] %(name)s - %(message)s")
log = logging.getLogger("ctr.train")


def fetch_side_features(keys, region):
    # the client has no timeout; a request to an unreachable region just blocks
    if region == "eu-2":
        time.sleep(3600)
    time.sleep(0.01)
    return torch.randn(len(keys), 8)


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    region = open("regions.txt").read().split()[rank]
    log.info("feature store region %s", region)
    model = DDP(TinyMLP(d_in=24, d_out=2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 121):
        dense = torch.randn(64, 16, generator=g)
        keys = torch.randint(0, 10**6, (64,), generator=g).tolist()
        # side features are only refreshed every 40 steps (cached otherwise)
        if step % 40 == 1:
            side = fetch_side_features(keys, region if step > 1 else "local")
        x = torch.cat([dense, side], dim=1)
        y = torch.randint(0, 2, (64,), generator=g)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.04)
        if step % 10 == 0:
            log.info("step %d logloss %.4f", step, loss.item())
    log.info("done")


if __name__ == "__main__":
    main()
