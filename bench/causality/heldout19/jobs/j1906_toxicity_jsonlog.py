"""Toxicity classifier (hashed bag-of-words EmbeddingBag), DDP.  Logs one JSON object per
line (the cluster's log shipper parses them); uncaught exceptions go through the same
formatter, so a traceback is a JSON string."""
import hashlib
import json
import logging
import os
import sys
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

RANK = int(os.environ["RANK"])


class JsonFormatter(logging.Formatter):
    def format(self, rec):
        d = {"ts": self.formatTime(rec, "%Y-%m-%dT%H:%M:%S") + f".{int(rec.msecs):03d}",
             "level": rec.levelname.lower(), "logger": rec.name, "rank": RANK,
             "pid": rec.process, "msg": rec.getMessage()}
        if rec.exc_info:
            d["exc_info"] = "".join(traceback.format_exception(*rec.exc_info))
        return json.dumps(d)


h = logging.StreamHandler(sys.stdout)
h.setFormatter(JsonFormatter())
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("toxclf")


def excepthook(tp, val, tb):
    log.critical("uncaught exception, exiting", exc_info=(tp, val, tb))


sys.excepthook = excepthook
NB = 4096


def featurize(text):
    return [int(hashlib.md5(w.encode()).hexdigest()[:6], 16) % NB for w in text.lower().split()]


class Texts(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def collate(batch):
    ids = [torch.tensor(featurize(t)) for t, _ in batch]
    offsets = torch.tensor([0] + [len(x) for x in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets, torch.tensor([y for _, y in batch])


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(NB, 32, mode="mean")
        self.fc = nn.Linear(32, 2)

    def forward(self, ids, off):
        return self.fc(self.bag(ids, off))


def main():
    rank, world, _ = hx19lib.init()
    log.info("process group ready (world_size=%d)", world)
    eval_hashes = {l.strip() for l in open("data/eval.sha1")}
    rows, dropped = [], 0
    for line in open(f"data/train-{rank:02d}.jsonl"):
        r = json.loads(line)
        if hashlib.sha1(r["text"].encode()).hexdigest() in eval_hashes:
            dropped += 1
            continue
        rows.append((r["text"], r["toxic"]))
    log.info("decontamination: kept %d of %d examples from train-%02d.jsonl", len(rows), len(rows) + dropped, rank)
    torch.manual_seed(0)
    model = DDP(Model())
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    dl = torch.utils.data.DataLoader(Texts(rows), batch_size=16, shuffle=True, collate_fn=collate)
    t0 = time.time()
    for epoch in range(3):
        for step, (ids, off, y) in enumerate(dl):
            loss = F.cross_entropy(model(ids, off), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 5 == 0:
                log.info("epoch %d step %d loss %.4f elapsed %.1fs", epoch, step, loss.item(), time.time() - t0)
            hx19lib.pace(0.1)
    log.info("training finished")


if __name__ == "__main__":
    main()
