#!/usr/bin/env python3
"""Writes the input files of the cases that need them: python3 prep.py NNNN (in the case dir)."""
import json
import os
import random
import sys

import numpy as np


def p1802():
    os.makedirs("data", exist_ok=True)
    for s in range(3):
        r = random.Random(s)
        rows = [[r.randrange(300) for _ in range(10)] for _ in range(160)]
        json.dump(rows, open(f"data/sessions-{s}.json", "w"))
        # shard 1's upstream export appended 40 sessions after the index was built
        json.dump({"rows": 200 if s == 1 else 160}, open(f"data/manifest-{s}.json", "w"))


def p1803():
    for r in range(4):
        os.makedirs(f"exports/part-{r}", exist_ok=True)
        # part-3 was exported at full resolution (the others at 64x64)
        open(f"exports/part-{r}/meta.txt", "w").write("resolution=%d\n" % (384 if r == 3 else 64))


def p1804():
    os.makedirs("shards", exist_ok=True)
    for r in range(3):
        rng = np.random.default_rng(r)
        lens = rng.integers(40, 400, size=240)
        if r == 1:
            lens[157] = 1_200_000  # a whole book's OCR dump got in as one document
        toks = rng.integers(1, 2000, size=int(lens.sum()), dtype=np.int32)
        offs = np.concatenate([[0], np.cumsum(lens)])
        np.savez(f"shards/docs-{r}.npz", tokens=toks, offsets=offs, labels=rng.integers(0, 6, size=240))


def p1805():
    os.makedirs("feats", exist_ok=True)
    for r in range(4):
        rng = np.random.default_rng(r)
        frames = rng.integers(30, 90, size=96)
        blobs = [rng.standard_normal((n, 20)).astype(np.float32).tobytes() for n in frames]
        offs = np.concatenate([[0], np.cumsum([len(b) for b in blobs])[:-1]])
        idx = np.stack([offs, [len(b) for b in blobs]], 1).astype(np.int64)
        data = b"".join(blobs)
        if r == 2:
            data = data[:len(data) * 2 // 3]  # the copy to this node stopped at 2/3 (rsync killed)
        open(f"feats/utt-{r:02d}.rec", "wb").write(data)
        idx.tofile(f"feats/utt-{r:02d}.idx")


def p1806():
    os.makedirs("shards", exist_ok=True)
    words = "the of model data una de la und der les des train value loss".split()
    for e in range(3):
        for r in range(3):
            rng = random.Random(e * 10 + r)
            # the epoch-1 shard of rank 2 was re-exported for the multilingual tokenizer
            tk = "spm-multi-64k" if (e == 1 and r == 2) else "spm-en-32k"
            with open(f"shards/e{e}-r{r}.jsonl", "w") as f:
                f.write(json.dumps({"tokenizer": tk}) + "\n")
                for i in range(80):
                    text = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14)))
                    f.write(json.dumps({"text": text, "label": rng.randrange(5)}) + "\n")


def p1808():
    os.makedirs("shards", exist_ok=True)
    for r in range(4):
        rng = np.random.default_rng(r)
        n = 180 if r == 3 else 160  # the last shard takes the remainder of the day's clicks
        x = rng.integers(0, 50, size=(n, 6))
        np.savez(f"shards/clicks-{r}.npz", x=x, y=(x.sum(1) % 3 == 0).astype(np.float32))


def p1812():
    nodes = ["fc-n01", "fc-n02", "fc-n03", "fc-n04"]
    os.makedirs("netfs/shards", exist_ok=True)
    for r, n in enumerate(nodes):
        os.makedirs(f"local/{n}", exist_ok=True)
        for e in range(3):
            a = np.random.default_rng(r * 10 + e).standard_normal((128, 12, 4)).astype(np.float32)
            path = f"local/{n}/part-{r}-e0.bin" if e == 0 else f"netfs/shards/part-{r}-e{e}.bin"
            a.tofile(path)
    # the netfs server stops answering fc-n04's mount for 27 s while it reads its epoch-1 shard
    json.dump({"fc-n04": 27.0}, open("mounts.json", "w"))


CASES = {"1802": p1802, "1803": p1803, "1804": p1804, "1805": p1805, "1806": p1806,
         "1808": p1808, "1812": p1812}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
