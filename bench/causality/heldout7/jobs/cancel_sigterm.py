# Healthy job with a SIGTERM handler (as schedulers send on cancel); run.sh sends SIGTERM to every rank.
import os, sys, time, signal, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s rank{rank} %(levelname)s: %(message)s")
log = logging.getLogger()
stop = False
def on_term(signum, frame):
    global stop
    log.warning("received signal %d (SIGTERM), will stop after this step", signum)
    stop = True
signal.signal(signal.SIGTERM, on_term)

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
for step in range(200):
    g = torch.randn(64); dist.all_reduce(g)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, 2.0 / (step + 2))
    flag = torch.tensor([1.0 if stop else 0.0]); dist.all_reduce(flag)
    if flag.item() > 0:
        log.warning("stop requested, exiting at step %d without saving", step)
        sys.exit(143)
    time.sleep(0.1)
