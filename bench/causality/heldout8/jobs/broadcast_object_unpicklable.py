# The source rank broadcasts the run config with broadcast_object_list; the config object holds
# a threading.Lock (from a logging/metrics client attached to it), which cannot be pickled.
# HF-style logging with no rank in it.
import os, time, logging, threading
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s",
                    datefmt="%m/%d/%Y %H:%M:%S")
log = logging.getLogger(__name__)

class MetricsClient:
    def __init__(self): self._lock = threading.Lock(); self.buffer = []

class RunConfig:
    def __init__(self):
        self.lr = 3e-4; self.epochs = 3; self.seed = 1234
        self.metrics = MetricsClient()

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    log.info("Process group initialized")
    obj = [RunConfig() if rank == 0 else None]
    log.info("Syncing run config")
    dist.broadcast_object_list(obj, src=0)
    cfg = obj[0]
    log.info("lr=%s epochs=%s seed=%s", cfg.lr, cfg.epochs, cfg.seed)

try:
    main()
except Exception:
    log.exception("Run failed")
    raise SystemExit(1)
