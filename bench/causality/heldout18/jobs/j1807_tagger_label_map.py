"""Token tagger (BiGRU) with hand-written gradient all_reduce; per-rank log files.

Roles (from the job config): rank LABEL_OWNER owns the annotation-schema shard and, after
the first epoch, publishes the label map with counts to shared/label_map.json; rank
EVAL_RANK waits for that file and prints a per-class report before training goes on.
"""
import json
import logging
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import trainlib

LABEL_OWNER, EVAL_RANK = 1, 3
TAGS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]

rank, world = trainlib.init_distributed(timeout_s=20)
logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s - %(message)s")
log = logging.getLogger("tagger")


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(800, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True, bidirectional=True)
        self.out = nn.Linear(64, len(TAGS))

    def forward(self, x):
        return self.out(self.rnn(self.emb(x))[0])


def publish_label_map(y):
    counts = np.bincount(y.flatten().numpy(), minlength=len(TAGS))
    os.makedirs("shared", exist_ok=True)
    with open("shared/label_map.json", "w") as f:
        json.dump({"tags": TAGS, "ids": {t: i for i, t in enumerate(TAGS)},
                   "counts": {t: counts[i] for i, t in enumerate(TAGS)}}, f, indent=1)
    log.info("published shared/label_map.json")


def wait_label_map():
    while not os.path.exists("shared/label_map.json"):
        time.sleep(0.2)
    time.sleep(0.3)  # let the writer finish
    with open("shared/label_map.json") as f:
        return json.load(f)


def main():
    g = torch.Generator().manual_seed(rank)
    x = torch.randint(0, 800, (160, 20), generator=g)
    y = (x % len(TAGS)) * (x % 3 == 0)
    log.info("rank %d of %d: %d sentences", rank, world, len(x))
    torch.manual_seed(0)
    model = Tagger()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(3):
        for step in range(10):
            xb, yb = x[step * 16:(step + 1) * 16], y[step * 16:(step + 1) * 16]
            loss = F.cross_entropy(model(xb).flatten(0, 1), yb.flatten())
            opt.zero_grad()
            loss.backward()
            trainlib.average_gradients(model)
            opt.step()
            trainlib.fake_compute(0.08)
            if step % 3 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        mean = trainlib.all_reduce_mean(loss.item())
        log.info("epoch %d done, mean loss %.4f", epoch, mean)
        if epoch == 0:
            if rank == LABEL_OWNER:
                publish_label_map(y)
            if rank == EVAL_RANK:
                lm = wait_label_map()
                log.info("per-class counts: %s", lm["counts"])
    log.info("finished")


try:
    main()
except Exception:
    log.exception("training failed")
    sys.exit(1)
