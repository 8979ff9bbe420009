# Rank shows up only in the logger name (train.rank1). Rank 1's shard has a corrupted feature
# (inf) at step 13; the NaN guard logs an ERROR and raises FloatingPointError on that rank. Peers: Connection closed.
import logging, math, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s | %(levelname)s | %(name)s | %(message)s")
log = logging.getLogger(f"train.rank{rank}")
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
w = torch.zeros(8, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
running = 0.0
for step in range(30):
    x = torch.randn(16, 8)
    if rank == 1 and step == 13:
        x[5, 2] = float("inf")
    loss = ((x @ w - 1.0) ** 2).mean()
    running = 0.9 * running + 0.1 * loss.item()
    if not math.isfinite(running):
        log.error("loss became non-finite at step %d (batch loss %s)", step, loss.item())
        raise FloatingPointError(f"non-finite running loss {running} at step {step}; aborting (check input pipeline)")
    opt.zero_grad(); loss.backward()
    dist.all_reduce(w.grad); w.grad /= world
    opt.step()
    if step % 5 == 0:
        log.info("step %d running_loss %.4f", step, running)
    time.sleep(0.08)
log.info("done")
