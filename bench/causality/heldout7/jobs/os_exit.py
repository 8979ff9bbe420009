# A rank's health check calls os._exit(1) (no traceback, no atexit, no flush).
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

logging.basicConfig(level=logging.INFO,
                    format="%(asctime)s [pid %(process)d] %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
log.info("process group ready: rank %d of %d (pid %d)", rank, world, os.getpid())

w = torch.zeros(32)
for step in range(30):
    g = torch.randn(32)
    dist.all_reduce(g)
    w -= 0.01 * g / world
    if step % 3 == 0:
        log.info("step %d |w|=%.4f", step, w.norm().item())
    if rank == 1 and step == 7:
        # "watchdog" style hard exit used by some trainers when a sanity check fails
        log.error("health check failed: non-finite loss scale, hard exit")
        os._exit(1)
    time.sleep(0.15)
log.info("done")
