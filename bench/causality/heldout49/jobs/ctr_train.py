# 4904: plain shell launch, combined console. The launcher starts the master (rank 0) on its own
# line and forgets WORLD_SIZE there; the script treats WORLD_SIZE<=1 as single-process training,
# so rank 0 never creates the TCPStore and trains alone to the end (exit 0). Ranks 1-3 cannot reach
# the store at MASTER_ADDR:MASTER_PORT and fail after the 20 s timeout.
import os, time, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1))
distributed = world > 1
tag = f"[ctr r{rank}]"
print(f"{tag} start: world_size={world} distributed={distributed} "
      f"master={os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')}", flush=True)
if distributed:
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
model = nn.Sequential(nn.EmbeddingBag(1000, 16, mode="sum"), nn.Linear(16, 1))
if distributed:
    model = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
g = torch.Generator().manual_seed(rank)
steps = 120
for step in range(1, steps + 1):
    idx = torch.randint(0, 1000, (64, 6), generator=g)
    y = (idx[:, 0] % 7 == 0).float().unsqueeze(1)
    loss = nn.functional.binary_cross_entropy_with_logits(model(idx), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0:
        print(f"{tag} step {step}/{steps} logloss {loss.item():.4f}", flush=True)
    time.sleep(0.15)
if distributed:
    dist.barrier()
print(f"{tag} training complete, model saved to ctr_model_r{rank}.pt", flush=True)
