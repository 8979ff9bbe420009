# Every rank closes its metrics writer in a `finally`; the last rank never opened one (it only
# evaluates), so its cleanup raises and it skips the final barrier.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger(__name__)
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
writer = open(os.devnull, "w") if rank != world - 1 else None

def train():
    try:
        for step in range(15):
            g = torch.randn(64); dist.all_reduce(g)
            if writer is not None:
                writer.write(f"{step},{g.norm().item()}\n")
            if step % 5 == 0:
                log.info("step %d grad_norm %.3f", step, g.norm().item())
            time.sleep(0.1)
    finally:
        writer.flush()
        writer.close()

train()
log.info("waiting for all ranks before saving")
dist.barrier()
log.info("saved final checkpoint")
