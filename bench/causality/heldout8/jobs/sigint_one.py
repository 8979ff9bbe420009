# Healthy loop; run.sh sends SIGINT to one worker only (a user's Ctrl-C in that worker's tmux
# pane). The job logs KeyboardInterrupt and re-raises. Loguru-like format with the rank in it.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s.%(msecs)03d | %(levelname)-8s | rank={rank} | %(name)s:%(funcName)s:%(lineno)d - %(message)s",
                    datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger("trainer")

def train():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    for it in range(400):
        g = torch.randn(128); dist.all_reduce(g)
        if it % 10 == 0:
            log.info("it %d loss %.4f", it, 3.0 / (it + 3))
        time.sleep(0.05)

try:
    train()
except KeyboardInterrupt:
    log.warning("interrupted by user (KeyboardInterrupt), exiting")
    raise
