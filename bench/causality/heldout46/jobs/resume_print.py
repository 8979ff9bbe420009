# 4603: hand-launched; the job's own output is print(f"[{rank}] ...", flush=True).
# Every rank resumes from its own shard file; rank 1's file is not a checkpoint.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
print(f"[{rank}] init done, world={world}", flush=True)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
path = f"/tmp/helper46/ckpt/rng-opt-shard{rank}.pt"
print(f"[{rank}] resuming from {path}", flush=True)
state = torch.load(path, map_location="cpu")
model.load_state_dict(state["model"])
print(f"[{rank}] resumed at step {state['step']}", flush=True)
model = DDP(model); opt = torch.optim.SGD(model.parameters(), lr=0.01)
g = torch.Generator().manual_seed(rank)
for step in range(state["step"] + 1, state["step"] + 21):
    x = torch.randn(16, 8, generator=g); y = torch.randint(0, 2, (16,), generator=g)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"[{rank}] step {step} loss {loss.item():.4f}", flush=True)
dist.barrier()
print(f"[{rank}] finished", flush=True)
