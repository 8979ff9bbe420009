# DDP without find_unused_parameters; one rank's batches take a branch that skips a layer.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 16); self.adapter = nn.Linear(16, 16); self.head = nn.Linear(16, 2)
    def forward(self, x, short):
        h = torch.relu(self.enc(x))
        if not short:
            h = h + self.adapter(h)
        return self.head(h)

model = nn.parallel.DistributedDataParallel(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(8):
    x = torch.randn(8, 16)
    short = (rank == 0 and step >= 3)        # this rank's shard has only short sequences from here on
    loss = nn.functional.cross_entropy(model(x, short), torch.randint(0, 2, (8,)))
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"step {step} loss {loss.item():.4f}", flush=True)
    time.sleep(0.2)
