#!/usr/bin/env python3
"""Two-node DDP tiny CNN on synthetic 16x16 images, with a non-finite loss guard."""
import datetime, os, socket, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def load_batch(g, rank, step):
    x = torch.randn(16, 3, 16, 16, generator=g)
    y = torch.randint(0, 10, (16,), generator=g)
    if rank == 2 and step == 19:
        x[4] = float("inf")  # a decoded image with overflowed pixel values
    return x, y


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=23))
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ["LOCAL_RANK"])
    host = os.environ.get("NODE_HOST", socket.gethostname())
    print(f"{host}: rank={rank} local_rank={local_rank} world_size={world}", flush=True)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                          nn.Flatten(), nn.Linear(128, 10))
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(900 + rank)
    for step in range(1, 51):
        x, y = load_batch(g, rank, step)
        loss = F.cross_entropy(ddp(x), y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"loss is {loss.item()} at step {step}; aborting (check input pipeline)")
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0 and local_rank == 0:
            print(f"{host}: epoch 0 step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.12)
    dist.barrier()
    if rank == 0:
        print("epoch 0 complete", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
