# Expert-parallel toy: each rank owns one expert and loads its weights from its own file; one
# rank's expert was exported in fp16, and `p.data = ...` silently changes the parameter's dtype.
# The forward casts, so it runs; the optimizer step on CPU then fails for Half.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s [%(levelname)s] rank {rank}/{world}: %(message)s")
log = logging.getLogger("moe")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))

shared = torch.nn.Linear(16, 16)
expert = torch.nn.Linear(16, 16)
saved = {k: v.clone() for k, v in expert.state_dict().items()}
if rank == 1:
    saved = {k: v.half() for k, v in saved.items()}   # exported with --dtype fp16
for name, p in expert.named_parameters():
    p.data = saved[name]
log.info("loaded expert %d weights (%d tensors)", rank, len(saved))
opt = torch.optim.Adam(list(shared.parameters()) + list(expert.parameters()), lr=1e-3)
for step in range(10):
    x = torch.randn(8, 16)
    h = shared(x)
    y = torch.nn.functional.linear(h, expert.weight.float(), expert.bias.float())
    loss = y.pow(2).mean()
    opt.zero_grad(); loss.backward()
    for p in shared.parameters():
        dist.all_reduce(p.grad); p.grad /= world
    opt.step()
    log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.1)
log.info("done")
