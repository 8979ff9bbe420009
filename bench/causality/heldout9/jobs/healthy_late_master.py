# Healthy run. The launcher starts rank 0 (which hosts the TCPStore) 3 s after the others, as
# happens when the first node is slow to come up: the others print c10d client-socket connect
# warnings while they retry, then everything trains and finishes.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
print(f"rank {rank}: joined process group", flush=True)
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(15):
    loss = model(torch.randn(8, 16)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
    time.sleep(0.05)
dist.barrier()
print(f"rank {rank}: training finished", flush=True)
