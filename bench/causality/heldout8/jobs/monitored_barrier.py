# dist.monitored_barrier (gloo) before checkpointing; one rank is still writing its eval dump and
# misses it. Rank 0's monitored_barrier names the rank that did not arrive.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
class RankFilter(logging.Filter):
    def filter(self, rec): rec.rank = rank; return True
h = logging.StreamHandler(); h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] [RANK %(rank)s] %(name)s: %(message)s"))
log = logging.getLogger("ckpt"); log.addHandler(h); log.setLevel(logging.INFO)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    for step in range(8):
        g = torch.randn(50); dist.all_reduce(g); time.sleep(0.1)
    log.info("train phase done")
    if rank == 3:
        log.info("writing eval dump (12000 rows)")
        time.sleep(9)
        log.info("eval dump written")
    dist.monitored_barrier(timeout=timedelta(seconds=5))
    log.info("checkpoint saved")

try:
    main()
except Exception:
    log.exception("checkpoint phase failed")
    raise SystemExit(1)
