# DDP classifier; rank 0 runs the full validation pass + checkpoint at the end of each epoch,
# the other ranks wait at a barrier for it
import os, time, torch, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
rank = dist.get_rank(); world = dist.get_world_size()
torch.manual_seed(0)
model = DDP(torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 5)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(100 + rank)
def evaluate():
    # full validation set, one image-sized batch at a time (slow host-side decode)
    model.eval(); correct = total = 0
    with torch.no_grad():
        for i in range(60):
            x = torch.randn(64, 20); y = torch.randint(0, 5, (64,))
            time.sleep(0.75)  # decode + augment on CPU
            correct += (model.module(x).argmax(1) == y).sum().item(); total += 64
            if (i + 1) % 10 == 0:
                print(f"[rank {rank}] eval batch {i+1}/60 acc so far {correct/total:.3f}", flush=True)
    model.train(); return correct / total
for epoch in range(2):
    for step in range(25):
        x = torch.randn(32, 20, generator=g); y = torch.randint(0, 5, (32,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 8 == 0:
            print(f"[rank {rank}] epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
    if rank == 0:
        print(f"[rank {rank}] epoch {epoch} done, running validation", flush=True)
        acc = evaluate()
        torch.save(model.module.state_dict(), f"/tmp/h51_longeval_ep{epoch}.pt")
        print(f"[rank {rank}] epoch {epoch} val acc {acc:.3f}, checkpoint saved", flush=True)
    dist.barrier()
print(f"[rank {rank}] done", flush=True)
