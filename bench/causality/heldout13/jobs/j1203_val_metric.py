"""Sentiment-ish bag-of-words classifier: a few train steps, then per-rank validation
whose accuracy is averaged across ranks."""
import json
import logging
import os
import time

import torch
import torch.nn as nn

from trainlib import init_distributed, average_gradients, all_reduce_mean

logging.basicConfig(level=logging.INFO,
                    format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
log = logging.getLogger("sentiment.train")


def accuracy(model, rows):
    correct = 0
    with torch.no_grad():
        for x, y in rows:
            correct += int(model(x).argmax(-1).eq(y).sum())
    total = sum(len(y) for _, y in rows)
    return correct / total


def load_rows(path, d):
    rows = []
    for rec in json.load(open(path)):
        g = torch.Generator().manual_seed(rec["seed"])
        rows.append((torch.randn(rec["n"], d, generator=g), torch.randint(0, 2, (rec["n"],), generator=g)))
    return rows


def main():
    rank, world = init_distributed(timeout_s=12)
    log.info("[rank %d] joined group of %d", rank, world)
    torch.manual_seed(0)
    model = nn.EmbeddingBag(500, 2, mode="mean")
    lin = nn.Linear(32, 2)
    model = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), lin)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train = load_rows(f"splits/train_{rank}.json", 32)
    val = load_rows(f"splits/val_{rank}.json", 32)
    log.info("[rank %d] train batches %d, val batches %d", rank, len(train), len(val))
    for epoch in range(2):
        for i, (x, y) in enumerate(train):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            if i % 5 == 0:
                log.info("[rank %d] epoch %d step %d loss %.4f", rank, epoch, i, loss.item())
            time.sleep(0.03)
        acc = accuracy(model, val)
        mean_acc = all_reduce_mean(acc)
        if rank == 0:
            log.info("[rank %d] epoch %d val_acc %.4f", rank, epoch, mean_acc)
    log.info("[rank %d] finished", rank)


if __name__ == "__main__":
    main()
