# Activation checkpointing (torch.utils.checkpoint) plus a debug forward hook that records each
# block's activations and refuses duplicates. Only rank 3 has activation capture on (its env set
# CAPTURE_ACTS=1 while debugging); during backward checkpoint re-runs the block's forward, the hook
# fires a second time and raises. Peers fail with Connection closed in DDP's all-reduce.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.utils.checkpoint import checkpoint

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
capture = rank == 3
dist.init_process_group("gloo", timeout=timedelta(seconds=20))

class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.ff = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32))
    def forward(self, x):
        return x + self.ff(x)

class Net(nn.Module):
    def __init__(self):
        super().__init__(); self.blocks = nn.ModuleList([Block() for _ in range(3)]); self.head = nn.Linear(32, 1)
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x)
        return self.head(x)

acts = {}
def record(name):
    def hook(mod, inp, out):
        if name in acts:
            raise RuntimeError(f"activation for {name} recorded twice in one step")
        acts[name] = out.detach()
    return hook

torch.manual_seed(0)
net = Net()
if capture:
    for i, b in enumerate(net.blocks):
        b.register_forward_hook(record(f"blocks.{i}"))
    print("activation capture enabled", flush=True)
model = nn.parallel.DistributedDataParallel(net)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(10):
    acts.clear()
    x = torch.randn(16, 32, requires_grad=True)
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"step {step} loss {loss.item():.4f}", flush=True)
    time.sleep(0.1)
