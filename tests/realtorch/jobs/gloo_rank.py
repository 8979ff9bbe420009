# One rank of a 4-rank gloo job; rank 2 hits a shape mismatch, the others die in all_reduce.
import os
from datetime import timedelta

import torch
import torch.distributed as dist

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank = dist.get_rank()
x = torch.ones(3, 4)
for step in range(3):
    print(f"step {step} rank {rank}", flush=True)
    if rank == 2 and step == 1:
        torch.nn.functional.linear(x, torch.ones(6, 5))  # (3x4) @ (5x6): shapes do not fit
    dist.all_reduce(x)
dist.destroy_process_group()
