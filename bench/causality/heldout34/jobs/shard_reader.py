"""Tiny MLP with DDP over gloo, launched by mpirun. Batches come from a
(simulated) remote shard reader; one worker's read stalls inside a step."""
import os, time
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from mpi_common import init, MLP, make_batch

STEPS = 30


def read_batch(gen, rank, step):
    if rank == 1 and step == 11:
        time.sleep(100)  # planted fault: this read never comes back in time
    return make_batch(gen)


def main():
    rank, world, local_rank = init(29613)
    print(f"rank {rank}: process group ready (world_size={world})", flush=True)
    torch.manual_seed(0)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(11 + rank)
    t0 = time.time()
    for step in range(STEPS):
        x, y = read_batch(gen, rank, step)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if step % 3 == 0:
            print(f"rank {rank}: step {step} loss {loss.item():.4f} ({time.time()-t0:.1f}s)", flush=True)
        time.sleep(0.05)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
