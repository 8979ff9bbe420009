"""Tiny MLP with DDP over gloo, launched by mpirun, with a per-rank validation
check every 8 steps; one rank's check bails out with sys.exit(2) and no message."""
import math, os, sys, time
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from mpi_common import init, MLP, make_batch

STEPS = 40


def val_metric(model, gen, rank, step):
    with torch.no_grad():
        x, y = make_batch(gen, bs=128)
        acc = (model(x).argmax(1) == y).float().mean().item()
    if rank == 1 and step >= 16:
        acc = float("nan")  # planted: this rank's validation shard yields no samples
    return acc


def main():
    rank, world, local_rank = init(29615)
    print(f"rank {rank} of {world} up", flush=True)
    torch.manual_seed(0)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(31 + rank)
    vgen = torch.Generator().manual_seed(900 + rank)
    for step in range(STEPS):
        x, y = make_batch(gen)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if step % 8 == 0 and step > 0:
            acc = val_metric(model.module, vgen, rank, step)
            if not math.isfinite(acc):
                sys.exit(2)
            print(f"rank {rank} step {step} loss {loss.item():.4f} val_acc {acc:.3f}", flush=True)
        elif step % 4 == 0 and rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
