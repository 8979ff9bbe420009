"""Next-item recommender (GRU over item-id sessions), mp.spawn, DDP, DataLoader num_workers=2.

Each rank reads its session shard through a small in-process cache.  Between epochs the
dataset checks the shard's manifest; when the manifest has more rows than the index (the
upstream export appended), a background thread re-indexes the shard under the cache lock
while training carries on.
"""
import argparse
import json
import logging
import os
import sys
import threading
import time
from datetime import timedelta

import torch
import torch.nn as nn
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

ITEMS, SEQ = 300, 10


class SessionShard(Dataset):
    def __init__(self, root, shard, log):
        self.root, self.shard, self.log = root, shard, log
        self.lock = threading.Lock()
        self.cache = {}
        self.rows = json.load(open(os.path.join(root, f"sessions-{shard}.json")))
        self.indexed = len(self.rows)

    def _reindex(self, n_new):
        with self.lock:
            for i in range(n_new):
                time.sleep(0.05)  # read + hash one appended block from the shard file
                self.cache.pop(i, None)
            self.indexed += n_new

    def maybe_refresh(self):
        man = json.load(open(os.path.join(self.root, f"manifest-{self.shard}.json")))
        if man["rows"] > self.indexed:
            n_new = man["rows"] - self.indexed
            self.log.info("shard %d: manifest has %d rows, index %d; re-indexing %d rows in background",
                          self.shard, man["rows"], self.indexed, n_new)
            threading.Thread(target=self._reindex, args=(n_new,), daemon=True).start()

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        with self.lock:
            if i not in self.cache:
                self.cache[i] = torch.tensor(self.rows[i], dtype=torch.long)
            s = self.cache[i]
        return s[:-1], s[-1]


class NextItem(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(ITEMS, 24)
        self.gru = nn.GRU(24, 32, batch_first=True)
        self.out = nn.Linear(32, ITEMS)

    def forward(self, x):
        h, _ = self.gru(self.emb(x))
        return self.out(h[:, -1])


def worker(rank, world, port, root):
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format=f"%(asctime)s.%(msecs)03d r{rank}/{world} %(levelname)-5s %(message)s",
                        datefmt="%H:%M:%S")
    log = logging.getLogger("rec")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(rank)
    ds = SessionShard(root, rank, log)
    log.info("shard %d: %d sessions", rank, len(ds))
    model = DDP(NextItem())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    lossf = nn.CrossEntropyLoss()
    for epoch in range(4):
        if epoch > 0:
            ds.maybe_refresh()
        # fork, not the spawn default inherited from mp.spawn: workers share the decoded cache
        loader = DataLoader(ds, batch_size=16, shuffle=True, num_workers=2,
                            multiprocessing_context="fork")
        tot = 0.0
        for step, (x, y) in enumerate(loader):
            loss = lossf(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
            if step % 4 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        t = torch.tensor([tot / (step + 1)])
        dist.all_reduce(t)
        log.info("epoch %d mean loss %.4f", epoch, t.item() / world)
    dist.destroy_process_group()
    log.info("finished")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=30302)
    ap.add_argument("--data", default="data")
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world, a.port, a.data), nprocs=a.world)
