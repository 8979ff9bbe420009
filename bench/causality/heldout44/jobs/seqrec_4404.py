# 4404: session-based recommender (GRU4Rec-ish); batches come from a background prefetch thread
import os
import queue
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
N_ITEMS = 200
# item ids seen by each worker's session partition; worker 2's partition was built against a newer catalog
catalog = {i: i for i in range(N_ITEMS)}


def prefetch(q):
    g = torch.Generator().manual_seed(7 + rank)
    for b in range(60):
        raw = torch.randint(0, N_ITEMS, (16, 9), generator=g)
        if rank == 2 and b == 13:
            raw[3, 4] = N_ITEMS + 17
        ids = torch.tensor([[catalog[int(v)] for v in row] for row in raw])
        q.put(ids)
    q.put(None)


q = queue.Queue(maxsize=4)
threading.Thread(target=prefetch, args=(q,), name="prefetch", daemon=True).start()


class GRURec(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(N_ITEMS, 24)
        self.gru = torch.nn.GRU(24, 24, batch_first=True)
        self.out = torch.nn.Linear(24, N_ITEMS)

    def forward(self, s):
        h, _ = self.gru(self.emb(s))
        return self.out(h[:, -1])


torch.manual_seed(3)
model = DDP(GRURec())
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
step = 0
while True:
    ids = q.get()
    if ids is None:
        break
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(ids[:, :-1]), ids[:, -1])
    loss.backward()
    opt.step()
    step += 1
    time.sleep(0.05)
    if step % 5 == 0:
        print(f"global_rank={rank} step={step} loss={loss.item():.3f}", flush=True)
dist.destroy_process_group()
print(f"global_rank={rank} finished", flush=True)
