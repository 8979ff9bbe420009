# Healthy run: one rank logs a caught, retried exception with its traceback (metrics upload), then all finish.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger(f"worker{rank}")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
attempts = 0
def upload_metrics(step):
    global attempts
    attempts += 1
    if rank == 1 and attempts == 1:
        raise ConnectionError("HTTPConnectionPool(host='127.0.0.1', port=8086): Max retries exceeded (Connection refused)")
for step in range(10):
    g = torch.randn(64); dist.all_reduce(g)
    log.info("step %d loss %.4f", step, 1.0 / (step + 1))
    if step == 4:
        for _ in range(2):
            try:
                upload_metrics(step); break
            except ConnectionError:
                log.exception("metrics upload failed, retrying in 1s")
                time.sleep(1.0)
    time.sleep(0.1)
dist.barrier()
log.info("run finished OK")
