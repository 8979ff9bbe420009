"""Knowledge distillation of a frozen teacher MLP into a smaller student, DDP, one log
file per rank.  On SIGTERM (the scheduler's time limit) the ranks agree to stop at the next
step, rank 0 writes a resumable checkpoint, and everyone exits cleanly."""
import logging
import os
import signal
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib

STOP = {"sig": 0}


def on_signal(signum, frame):
    STOP["sig"] = signum


def mlp(d_in, h, d_out):
    return nn.Sequential(nn.Linear(d_in, h), nn.GELU(), nn.Linear(h, h), nn.GELU(), nn.Linear(h, d_out))


def main():
    torch.set_num_threads(1)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGUSR1, on_signal)
    rank, world = trainlib.init_distributed(timeout_s=20)
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="%(asctime)s %(levelname)s %(process)d %(name)s - %(message)s")
    log = logging.getLogger("distill")
    log.info("rank %d of %d on %s", rank, world, os.uname().nodename)
    torch.manual_seed(7)
    teacher = mlp(24, 128, 10).eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = DDP(mlp(24, 32, 10))
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(100 + rank)
    T = 3.0
    step = 0
    while step < 4000:
        x = torch.randn(64, 24, generator=g)
        with torch.no_grad():
            soft = F.softmax(teacher(x) / T, dim=1)
        loss = F.kl_div(F.log_softmax(student(x) / T, dim=1), soft, reduction="batchmean") * T * T
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            log.info("step %d kd_loss %.5f", step, loss.item())
        stop = torch.tensor([STOP["sig"]])
        dist.all_reduce(stop, op=dist.ReduceOp.MAX)
        if stop.item():
            log.warning("got signal %d, stopping at step %d", stop.item(), step)
            if rank == 0:
                torch.save({"student": student.module.state_dict(), "opt": opt.state_dict(), "step": step},
                           "distill_last.pt")
                log.info("checkpoint written: distill_last.pt (step %d); resubmit to continue", step)
            dist.barrier()
            dist.destroy_process_group()
            return
        time.sleep(0.02)
    log.info("reached max steps")


if __name__ == "__main__":
    main()
