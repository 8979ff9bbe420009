import json
import logging
import os
import socket
import sys
import time
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, SyntheticDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))))  # noqa


def push_metrics(metrics, addr=("127.0.0.1", 9091)):
    # best effort: a Pushgateway-like collector that may not be running
    with socket.create_connection(addr, timeout=1.0) as s:
        s.sendall(json.dumps(metrics).encode())


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    logging.captureWarnings(True)
    log = logging.getLogger("train")
    rank, world = init_distributed(timeout_s=15)
    log.info("rank %d/%d started", rank, world)
    ds = SyntheticDataset(n=384, seed=0)
    sampler = torch.utils.data.distributed.DistributedSampler(ds, num_replicas=world, rank=rank)
    loader = torch.utils.data.DataLoader(ds, batch_size=32, sampler=sampler, num_workers=3)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        sched.step()  # (called at the start of the epoch)
        for x, y in loader:
            loss = F.nll_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        t = torch.tensor([loss.item()])
        dist.all_reduce(t)
        if rank == 0:
            log.info("epoch %d lr %.4f mean loss %.4f", epoch, sched.get_last_lr()[0], t.item() / world)
            try:
                push_metrics({"epoch": epoch, "loss": t.item() / world})
            except OSError:
                log.warning("metrics push failed, continuing without dashboard", exc_info=True)
    dist.barrier()
    if rank == 0:
        torch.save(model.module.state_dict(), "model_final.pt")
        log.info("saved model_final.pt")
    dist.destroy_process_group()
    log.info("exiting cleanly")


if __name__ == "__main__":
    main()
