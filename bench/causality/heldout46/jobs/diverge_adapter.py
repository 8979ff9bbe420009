# 4601: hand-launched (per-rank env vars), logging via LoggerAdapter with [RANK n] in the format.
# Rank 2's targets get scaled up from step 12; its own guard raises TrainingDiverged.
import logging, math, os, sys
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

class TrainingDiverged(RuntimeError):
    pass

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
_h = logging.StreamHandler(sys.stdout)
_h.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] [RANK %(rank)s] %(name)s: %(message)s"))
_lg = logging.getLogger("trainer"); _lg.addHandler(_h); _lg.setLevel(logging.INFO); _lg.propagate = False
log = logging.LoggerAdapter(_lg, {"rank": rank})

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
log.info("process group ready: world_size=%d backend=%s", world, dist.get_backend())
torch.manual_seed(0)
model = DDP(torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
g = torch.Generator().manual_seed(100 + rank)
for step in range(1, 41):
    x = torch.randn(32, 16, generator=g)
    y = x.sum(1, keepdim=True)
    if rank == 2 and step >= 12:
        y = y * 1e38 * step   # corrupted label scale in this shard
    loss = torch.nn.functional.mse_loss(model(x), y)
    if not math.isfinite(loss.item()):
        log.error("non-finite loss (%s) at step %d, aborting", loss.item(), step)
        raise TrainingDiverged(f"loss became {loss.item()} at step {step} (lr={opt.param_groups[0]['lr']})")
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        log.info("step %d/40 loss=%.4f", step, loss.item())
log.info("training done")
dist.barrier()
dist.destroy_process_group()
