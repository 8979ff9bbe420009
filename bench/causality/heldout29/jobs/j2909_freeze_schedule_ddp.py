# Fine-tuning with a per-rank "freeze schedule" read from a dict keyed by rank.
# The entry for rank 1 was written as a string "all" instead of a layer count,
# and the code treats anything non-int as "freeze everything", so on rank 1 no
# parameter requires grad and DDP refuses to wrap the model.
import os, datetime
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

FREEZE = {0: 1, 1: "all", 2: 1, 3: 1}

def build(rank):
    m = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(),
                            torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 3))
    n = FREEZE[rank]
    layers = [l for l in m if isinstance(l, torch.nn.Linear)]
    frozen = layers if not isinstance(n, int) else layers[:n]
    for l in frozen:
        for p in l.parameters():
            p.requires_grad_(False)
    return m

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    m = build(rank)
    print(f"rank {rank}: trainable params {sum(p.numel() for p in m.parameters() if p.requires_grad)}", flush=True)
    model = DDP(m)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    for step in range(10):
        loss = torch.nn.functional.cross_entropy(model(torch.randn(16, 32)), torch.randint(0, 3, (16,)))
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
