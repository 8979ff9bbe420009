"""Healthy control: tiny MLP with DDP over gloo, launched by mpirun; produces
the usual warnings (lr_scheduler order, implicit softmax dim, a config
deprecation) and finishes cleanly with exit code 0."""
import os, time, warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from mpi_common import init, MLP, make_batch

STEPS = 30


def main():
    rank, world, local_rank = init(29616)
    if rank == 0:
        warnings.warn("config key 'warmup' is deprecated, use 'scheduler.warmup_steps'",
                      FutureWarning)
    print(f"rank {rank}/{world} ready", flush=True)
    torch.manual_seed(0)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 10))
    sched.step()  # called before optimizer.step(): torch warns about the order
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(41 + rank)
    for step in range(STEPS):
        x, y = make_batch(gen)
        opt.zero_grad()
        out = model(x)
        probs = F.softmax(out)  # implicit dim: torch warns
        loss = loss_fn(out, y)
        loss.backward()
        opt.step()
        sched.step()
        if step % 5 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f} "
                  f"pmax {probs.max().item():.3f}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    if rank == 0:
        print("finished 30 steps, all ranks ok", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
