# dist.new_group must be called by every rank. The eval group is created only inside
# `if rank in eval_ranks`, so the writer rank (the last one) skips it: the others time out in the
# new group's store-based barrier, and the writer waits in the next all_reduce.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
log = logging.getLogger("runner")
dist.init_process_group("gloo", timeout=timedelta(seconds=10))
for step in range(5):
    g = torch.randn(16); dist.all_reduce(g); time.sleep(0.1)
log.info("train steps done")
eval_ranks = list(range(world - 1))
if rank in eval_ranks:
    eval_group = dist.new_group(eval_ranks, timeout=timedelta(seconds=10))
    log.info("eval group ready")
    t = torch.ones(1); dist.all_reduce(t, group=eval_group)
else:
    log.info("writer: flushing predictions")
t = torch.ones(1); dist.all_reduce(t)
log.info("done")
