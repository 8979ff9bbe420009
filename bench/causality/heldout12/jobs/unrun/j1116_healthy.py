"""Healthy run: logs through a syslog-like formatter; some warnings and a handled retry."""
import logging
import os
import socket
import sys
import time
import warnings
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset, seed_everything

logging.basicConfig(level=logging.INFO, stream=sys.stdout, datefmt="%b %d %H:%M:%S",
                    format=f"%(asctime)s {socket.gethostname()} train.py[%(process)d]: %(levelname)s %(message)s")
log = logging.getLogger("train")


def flaky_metrics_push(step, attempt):
    if step == 30 and attempt == 0:
        raise ConnectionError("metrics endpoint 10.0.0.5:8125 refused connection")


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    ds = SyntheticDataset(n=1024, seed=rank)
    loader = torch.utils.data.DataLoader(ds, batch_size=32, num_workers=0)
    model = DDP(TinyMLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 10)
    sched.step()  # triggers the "scheduler before optimizer" UserWarning
    step = 0
    for epoch in range(2):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            time.sleep(0.04)
            if rank == 0 and step % 10 == 0:
                for attempt in range(2):
                    try:
                        flaky_metrics_push(step, attempt)
                        break
                    except ConnectionError:
                        log.warning("metrics push failed, retrying", exc_info=True)
                log.info("step %d loss %.4f", step, loss.item())
        if epoch == 0:
            warnings.warn("grad norm not clipped; set max_norm in config", RuntimeWarning)
    log.info("rank %d finished %d steps", rank, step)


if __name__ == "__main__":
    main()
