"""Tiny MLP trained with DDP over gloo, launched by mpirun; switches to a second
data-mix stage half way and validates the stage config on every rank."""
import os, sys, time
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from mpi_common import init, MLP, make_batch

STEPS = 30
STAGE2_AT = 14
# per-rank mixture weights for stage 2 (web, books, code); loaded from the shard manifest
STAGE2_MIX = {0: (0.5, 0.3, 0.2), 1: (0.5, 0.3, 0.2), 2: (0.6, 0.3, 0.2), 3: (0.5, 0.3, 0.2)}


class MixConfigError(ValueError):
    pass


def check_mix(stage, mix):
    total = sum(mix)
    if abs(total - 1.0) > 1e-6:
        raise MixConfigError(
            f"stage {stage} mixture weights {mix} sum to {total:.3f}, expected 1.0 "
            f"(check data/mix_stage{stage}.yaml)")
    return mix


def main():
    rank, world, local_rank = init(29611)
    print(f"rank {rank}/{world} (local {local_rank}) initialised gloo", flush=True)
    torch.manual_seed(0)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(100 + rank)
    mix = check_mix(1, (0.7, 0.3, 0.0))
    for step in range(STEPS):
        if step == STAGE2_AT:
            if rank == 0:
                print(f"step {step}: entering data-mix stage 2", flush=True)
            mix = check_mix(2, STAGE2_MIX[rank])
        x, y = make_batch(gen)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if step % 5 == 0 and rank == 0:
            print(f"step {step:3d} | loss {loss.item():.4f} | mix {mix}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    if rank == 0:
        print("training done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
