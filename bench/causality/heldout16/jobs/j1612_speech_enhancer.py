"""Speech-enhancement mask estimator (GRU over spectrogram frames) with DDP.  On SIGUSR1
(the cluster's preemption notice) the ranks agree on a stop step, rank 0 writes a
checkpoint, and every rank exits normally so the job can be requeued."""
import logging
import os
import signal
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

logging.basicConfig(level=logging.INFO)
log = logging.getLogger(__name__)
STOP = {"flag": False}


def on_usr1(signum, frame):
    STOP["flag"] = True


class MaskNet(nn.Module):
    def __init__(self, bins=65, d=64):
        super().__init__()
        self.gru = nn.GRU(bins, d, batch_first=True)
        self.out = nn.Linear(d, bins)

    def forward(self, spec):
        return torch.sigmoid(self.out(self.gru(spec)[0]))


def main():
    signal.signal(signal.SIGUSR1, on_usr1)
    rank, world = init_distributed(timeout_s=20)
    seed_everything(2)
    model = DDP(MaskNet())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    log.info("rank %d/%d: training mask estimator, 65 bins, 100 frames per clip", rank, world)
    step = 0
    while step < 2000:
        clean = torch.rand(8, 100, 65, generator=g)
        noisy = clean + 0.3 * torch.rand(8, 100, 65, generator=g)
        loss = F.mse_loss(model(noisy) * noisy, clean)
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.03)
        flag = torch.tensor([1.0 if STOP["flag"] else 0.0])
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        if flag.item() > 0:
            log.info("rank %d: preemption notice (SIGUSR1), stopping after step %d", rank, step)
            if rank == 0:
                torch.save({"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}, "last.pt")
                log.info("checkpoint written to last.pt at step %d; job can be requeued", step)
            dist.barrier()
            break
        if step % 25 == 0 and rank == 0:
            log.info("step %d loss %.5f", step, loss.item())
        step += 1
    log.info("rank %d exiting", rank)


if __name__ == "__main__":
    main()
