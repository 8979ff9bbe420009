# A healthy training loop with no signal handling (used for the cancel cases).
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
model = torch.nn.Linear(32, 32)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for it in range(1000):
    loss = model(torch.randn(8, 32)).pow(2).mean(); loss.backward()
    for p in model.parameters(): dist.all_reduce(p.grad); p.grad /= world
    opt.step(); opt.zero_grad()
    if it % 10 == 0:
        print(f"iter {it:4d} | loss {loss.item():.4f} | lr 0.0100", flush=True)
    time.sleep(0.05)
