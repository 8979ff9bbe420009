# Healthy run with a handled non-finite-loss skip (like a grad scaler's skipped step) that logs a
# WARNING naming a rank, a softmax implicit-dim UserWarning, and an INFO-level "recovered" line.
# All ranks finish and exit 0.
import logging, os, sys, time
from datetime import timedelta
import torch, torch.nn.functional as F, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
log = logging.getLogger("trainer")
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
w = torch.zeros(8, 4, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
skipped = 0
for step in range(20):
    x = torch.randn(16, 8)
    if rank == 2 and step == 7:
        x[0, 0] = float("nan")
    probs = F.softmax(x @ w)
    loss = -probs.clamp_min(1e-6).log().mean()
    opt.zero_grad(); loss.backward()
    flag = torch.tensor([0.0 if torch.isfinite(loss) else 1.0])
    dist.all_reduce(flag)
    if flag.item() > 0:
        skipped += 1
        if not torch.isfinite(loss):
            log.warning("rank %d: non-finite loss (%s) at step %d, skipping update on all ranks", rank, loss.item(), step)
        continue
    dist.all_reduce(w.grad); w.grad /= world; opt.step()
    if step % 5 == 0 and rank == 0:
        log.info("step %d loss %.4f", step, loss.item())
dist.barrier()
if rank == 0:
    log.info("recovered from %d skipped step(s); training finished", skipped)
