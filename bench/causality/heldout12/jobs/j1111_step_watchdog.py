"""Training with a per-process step watchdog that kills the process if a step stalls."""
import os
import signal
import threading
import time
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset, seed_everything


class StepWatchdog(threading.Thread):
    def __init__(self, limit_s):
        super().__init__(daemon=True)
        self.limit = limit_s
        self.last = time.time()
        self.step = 0

    def kick(self, step):
        self.step = step
        self.last = time.time()

    def run(self):
        while True:
            time.sleep(0.2)
            if time.time() - self.last > self.limit:
                print(f"watchdog: step {self.step} has not finished after {self.limit:.1f}s, killing pid {os.getpid()}",
                      flush=True)
                os.kill(os.getpid(), signal.SIGKILL)


def main():
    rank, world = init_distributed(timeout_s=15)
    seed_everything(0)
    limit = float(open("watchdog.cfg").read().split()[rank])
    wd = StepWatchdog(limit)
    wd.start()
    print(f"step watchdog armed: {limit:.1f}s", flush=True)
    ds = SyntheticDataset(n=4096, seed=rank)
    loader = torch.utils.data.DataLoader(ds, batch_size=32)
    model = DDP(TinyMLP(d_hidden=64))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step, (x, y) in enumerate(loader, start=1):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        # periodic eval/logging makes some steps slower
        time.sleep(0.9 if step % 25 == 0 else 0.05)
        wd.kick(step)
        if step % 10 == 0 and rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main()
