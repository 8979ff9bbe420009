"""Training with an in-memory sample cache. One rank's shard is much larger,
its cache grows past the container limit and the kernel OOM killer takes the
process out (emulated here with SIGKILL once the cache passes the limit, since
the box has no cgroup memory limit)."""
import logging
import os
import signal
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, average_gradients

log = logging.getLogger(__name__)
MEM_LIMIT_MB = 96


class CachedShard:
    def __init__(self, n_items, item_kb):
        self.n = n_items
        self.item_kb = item_kb
        self.cache = {}

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i not in self.cache:
            # decoded sample kept around for the next epoch
            self.cache[i] = (torch.randn(16), int(i % 4), bytearray(self.item_kb * 1024))
        return self.cache[i][:2]

    def cache_mb(self):
        return len(self.cache) * self.item_kb / 1024


def oom_guard(ds):
    # stand-in for the cgroup limit: the kernel would SIGKILL us here
    if ds.cache_mb() > MEM_LIMIT_MB:
        os.kill(os.getpid(), signal.SIGKILL)


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
    rank, world = init_distributed(timeout_s=10)
    log.info("Distributed init: rank %d/%d, local_rank %s", rank, world, os.environ.get("LOCAL_RANK"))
    # shard sizes come from the dataset manifest; the last shard holds the
    # high-resolution samples
    item_kb = 256 if rank == world - 1 else 8
    ds = CachedShard(n_items=640, item_kb=item_kb)
    model = TinyMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bs = 16
    for epoch in range(2):
        for step, start in enumerate(range(0, len(ds), bs)):
            items = [ds[i] for i in range(start, start + bs)]
            oom_guard(ds)
            x = torch.stack([it[0] for it in items])
            y = torch.tensor([it[1] for it in items])
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            time.sleep(0.08)
            if rank == 0 and step % 10 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
    log.info("finished")


if __name__ == "__main__":
    main()
