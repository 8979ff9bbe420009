# Two "nodes" (two torchrun agents on one machine, c10d rendezvous), 2 workers each.
# Labels are loaded per global rank from a cached shard; the shard for global rank 2
# was written with int32 labels, so cross_entropy raises on global rank 2 only.
import os, datetime, socket
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def load_labels(rank, n):
    y = torch.randint(0, 4, (n,))
    return y.to(torch.int32) if rank == 2 else y

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    print(f"worker up: global rank {rank} local rank {os.environ['LOCAL_RANK']} "
          f"group rank {os.environ['GROUP_RANK']}", flush=True)
    model = DDP(torch.nn.Linear(20, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(32, 20)
        y = load_labels(rank, 32) if step >= 2 else torch.randint(0, 4, (32,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
