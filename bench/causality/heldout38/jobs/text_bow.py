#!/usr/bin/env python3
"""Two-node DDP bag-of-words topic classifier; tokenizer stats through a C helper."""
import ctypes, datetime, os, socket, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def native_token_stats(rank, step):
    # stands in for a buggy native tokenizer extension returning a NULL buffer
    if rank == 3 and step == 21:
        return ctypes.string_at(0)
    return b""


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ["LOCAL_RANK"])
    host = os.environ.get("NODE_HOST", socket.gethostname())
    print(f"global rank {rank} (local {local_rank}) on {host}", flush=True)
    torch.manual_seed(0)
    model = nn.Sequential(nn.EmbeddingBag(2000, 32, mode="mean"), nn.Linear(32, 8))
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.5)
    g = torch.Generator().manual_seed(321 + rank)
    for step in range(1, 51):
        tok = torch.randint(0, 2000, (32, 40), generator=g)
        y = tok[:, 0] % 8
        native_token_stats(rank, step)
        loss = F.cross_entropy(ddp(tok), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"step={step} loss={loss.item():.4f} tokens={tok.numel()}", flush=True)
        time.sleep(0.12)
    dist.barrier()
    if rank == 0:
        print("finished 50 steps", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
