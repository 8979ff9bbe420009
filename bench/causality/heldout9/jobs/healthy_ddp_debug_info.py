# Healthy run with TORCH_DISTRIBUTED_DEBUG=INFO (set by run.sh) and DDP(find_unused_parameters=True)
# although every parameter is used: torch prints its C++ INFO/warning lines per rank ([Rank N]:
# DDP init summary, reducer "find_unused_parameters=True ... did not find any unused parameters").
# All ranks finish and exit 0.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
model = torch.nn.parallel.DistributedDataParallel(
    torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)),
    find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(15):
    loss = model(torch.randn(8, 16)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
    time.sleep(0.05)
dist.barrier()
print(f"rank {rank}: training finished", flush=True)
