# One rank stalls in user code (a slow synchronous upload emulated with sleep); the others' gloo timeout fires.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s.%(msecs)03d [rank {rank}] %(levelname)s %(message)s",
                    datefmt="%Y-%m-%dT%H:%M:%S")
log = logging.getLogger("trainer")
dist.init_process_group("gloo", timeout=timedelta(seconds=10))
log.info("initialized, world size %d", world)
for step in range(12):
    g = torch.randn(256)
    dist.all_reduce(g)
    log.info("step %d grad_norm=%.3f", step, g.norm().item())
    if step == 5:
        log.info("syncing artifacts to remote storage")
        if rank == 1:
            time.sleep(25)      # remote store is slow on this host
        log.info("artifact sync done")
    time.sleep(0.2)
log.info("training finished")
