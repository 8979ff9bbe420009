"""Sharded checkpointing: every task writes its own optimizer shard every 25 steps."""
import getpass
import logging
import os
import socket
import sys
import time
import torch
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients, seed_everything

RANK = os.environ.get("SLURM_PROCID", "?")
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"%(asctime)s {socket.gethostname()}/{RANK} %(levelname)s %(message)s")
log = logging.getLogger(__name__)


def save_shard(step, rank, model, opt):
    d = os.path.join("ckpt", "shards", f"rank{rank}")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, f"step{step:06d}.pt")
    with open(path, "wb") as f:
        torch.save({"step": step, "model": model.state_dict(), "optim": opt.state_dict()}, f)
    return path


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    log.info("user=%s world=%d cwd=%s", getpass.getuser(), world, os.getcwd())
    ds = SyntheticDataset(n=1024, seed=rank)
    model = TinyMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for epoch in range(4):
        for i in range(0, len(ds), 32):
            x, y = ds.x[i:i + 32], ds.y[i:i + 32]
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            step += 1
            time.sleep(0.04)
            if step % 25 == 0:
                p = save_shard(step, rank, model, opt)
                log.info("step %d loss %.4f saved %s", step, loss.item(), p)
    log.info("done")


if __name__ == "__main__":
    main()
