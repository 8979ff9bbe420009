# 3-stage pipeline with point-to-point send/recv (one stage per rank). The number of micro-batches
# is global_batch // micro_batch, and stage 1 read a stale global_batch (24 instead of 32) from its
# local config copy, so it runs 3 micro-batches per step and moves on to the end-of-step barrier.
# Stage 0 is then stuck sending micro-batch 3 and stage 2 receiving it: gloo timeouts everywhere.
import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"%(asctime)s [stage {rank}] %(levelname)s %(message)s")
log = logging.getLogger("pipe")
dist.init_process_group("gloo", timeout=timedelta(seconds=8))
global_batch = 24 if rank == 1 else 32
micro = 8
n_micro = global_batch // micro
log.info("schedule: %d micro-batches per step (global batch %d, micro batch %d)", n_micro, global_batch, micro)
w = torch.randn(64, 64) * 0.1
for step in range(5):
    for mb in range(n_micro):
        if rank == 0:
            act = torch.randn(micro, 64) @ w
            dist.send(act, dst=1)
        else:
            act = torch.empty(micro, 64)
            dist.recv(act, src=rank - 1)
            act = act @ w
            if rank < world - 1:
                dist.send(act, dst=rank + 1)
    dist.barrier()
    log.info("step %d done", step)
    time.sleep(0.05)
log.info("finished")
