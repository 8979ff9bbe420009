# 4101: regression MLP; each rank reads its shard through a "remote" reader guarded by a
# watchdog thread that SIGKILLs its own process if one shard read takes too long.
import os, sys, time, threading, signal
from datetime import timedelta
import logging
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

STALL_LIMIT = 2.0

class StallWatchdog(threading.Thread):
    def __init__(self, rank):
        super().__init__(daemon=True, name="stall-watchdog")
        self.rank = rank
        self.started = None
        self.step = 0
    def enter(self, step):
        self.step = step
        self.started = time.monotonic()
    def leave(self):
        self.started = None
    def run(self):
        while True:
            time.sleep(0.2)
            t0 = self.started
            waited = 0.0 if t0 is None else time.monotonic() - t0
            if waited > STALL_LIMIT:
                logging.getLogger("watchdog").error(
                    "shard read at step %d stalled for %.1fs (limit %.1fs), assuming hung storage mount, killing pid %d",
                    self.step, waited, STALL_LIMIT, os.getpid())
                os.kill(os.getpid(), signal.SIGKILL)

def read_batch(rank, step, g):
    # rank 3's shard lives on the slow mount: the read at step 17 stalls
    if rank == 3 and step == 17:
        time.sleep(6.0)
    x = torch.randn(32, 24, generator=g)
    y = x[:, :4].sum(1, keepdim=True) + 0.1 * torch.randn(32, 1, generator=g)
    return x, y

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(100 + rank)
    wd = StallWatchdog(rank); wd.start()
    print(f"rank {rank}/{world}: shard /mnt/feat/part-{rank:04d}.bin, watchdog limit {STALL_LIMIT}s", flush=True)
    for step in range(1, 61):
        wd.enter(step)
        x, y = read_batch(rank, step, g)
        wd.leave()
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()
    print(f"rank {rank} done", flush=True)

if __name__ == "__main__":
    main()
