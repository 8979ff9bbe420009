"""Tiny MLP with DDP over gloo, launched by mpirun; rank 0 writes a checkpoint
every 10 steps to --ckpt (run.sh passes /dev/full, a device that is always full)."""
import argparse, os, time
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from mpi_common import init, MLP, make_batch

STEPS = 30


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="checkpoints/last.pt")
    args = ap.parse_args()
    rank, world, local_rank = init(29614)
    if rank == 0:
        print(f"world_size={world}, checkpoint -> {args.ckpt}", flush=True)
    torch.manual_seed(0)
    model = DDP(MLP())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(21 + rank)
    for step in range(1, STEPS + 1):
        x, y = make_batch(gen)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        if step % 10 == 0 and rank == 0:
            print(f"saving checkpoint at step {step}", flush=True)
            with open(args.ckpt, "wb") as f:
                torch.save({"step": step, "model": model.module.state_dict(),
                            "optim": opt.state_dict()}, f)
        time.sleep(0.05)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
