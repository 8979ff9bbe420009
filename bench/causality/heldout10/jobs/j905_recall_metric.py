import logging
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients, all_reduce_mean

N_CLASSES = 4


class RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def filter(self, record):
        record.rank = self.rank
        return True


def setup_logging(rank):
    h = logging.StreamHandler(sys.stdout)
    h.setFormatter(logging.Formatter(
        "%(asctime)s | %(levelname)-7s | rank=%(rank)s | %(name)s | %(message)s"))
    h.addFilter(RankFilter(rank))
    root = logging.getLogger()
    root.handlers[:] = [h]
    root.setLevel(logging.INFO)


log = logging.getLogger("train")


def val_shard(rank):
    # validation files are split by source; the source of shard 0 only ever
    # had three of the four classes
    ds = SyntheticDataset(n=200, seed=100 + rank)
    if rank == 0:
        keep = ds.y != 3
        ds.x, ds.y = ds.x[keep], ds.y[keep]
    return ds


def per_class_recall(model, ds):
    with torch.no_grad():
        pred = model(ds.x).argmax(1)
    recalls = []
    for c in range(N_CLASSES):
        support = int((ds.y == c).sum())
        tp = int(((pred == c) & (ds.y == c)).sum())
        recalls.append(tp / support)
    return recalls


def main():
    rank = int(os.environ["RANK"])
    setup_logging(rank)
    rank, world = init_distributed(timeout_s=10)
    log.info("initialized process group (world_size=%d)", world)
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    train = SyntheticDataset(n=384, seed=rank)
    val = val_shard(rank)
    log.info("train=%d val=%d samples", len(train), len(val))
    loader = torch.utils.data.DataLoader(train, batch_size=32, shuffle=True)
    try:
        for epoch in range(3):
            for x, y in loader:
                loss = F.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                average_gradients(model)
                opt.step()
                time.sleep(0.05)
            mean_loss = all_reduce_mean(loss.item())
            log.info("epoch %d train loss %.4f", epoch, mean_loss)
            rec = per_class_recall(model, val)
            macro = all_reduce_mean(sum(rec) / len(rec))
            log.info("epoch %d macro recall %.3f", epoch, macro)
    except Exception:
        log.exception("training failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
