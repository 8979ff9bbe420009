# 4501: implicit-feedback recommender, DDP, 4 ranks. Each step samples one negative item per user
# by rejection ("draw until the item is not a positive"). Rank 2's user shard has a user whose
# positives cover the whole catalogue from step 12 on, so its rejection loop never ends (busy
# Python loop, no collective); the other ranks wait in DDP's all-reduce and time out.
import os, random, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch import nn

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(0); random.seed(rank)
N_ITEMS, N_USERS = 40, 16
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Embedding(N_USERS + N_ITEMS, 8), nn.Flatten(), nn.Linear(16, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
positives = {u: set(random.sample(range(N_ITEMS), 5)) for u in range(N_USERS)}
print(f"[rank {rank}/{world}] catalogue={N_ITEMS} users={N_USERS} pid={os.getpid()}", flush=True)

def sample_negative(u):
    while True:
        j = random.randrange(N_ITEMS)
        if j not in positives[u]:
            return j

for step in range(1, 41):
    if step == 12 and rank == 2:
        positives[3] = set(range(N_ITEMS))  # cold-start backfill marks every item as seen
    users = list(range(N_USERS))
    pos = [random.choice(sorted(positives[u])) for u in users]
    neg = [sample_negative(u) for u in users]
    x = torch.tensor([[u, N_USERS + i] for u, i in zip(users + users, pos + neg)])
    y = torch.tensor([1.0] * N_USERS + [0.0] * N_USERS)
    loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"[rank {rank}] step {step} bce {loss.item():.4f}", flush=True)
    time.sleep(0.05)
dist.destroy_process_group()
print(f"[rank {rank}] done", flush=True)
