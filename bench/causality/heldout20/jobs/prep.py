#!/usr/bin/env python3
"""Writes the input files of one set-20 case into the current directory: prep.py NNNN."""
import json
import os
import sqlite3
import sys

import numpy as np


def shards(n, rows, cols, seed=0, ext="npy"):
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(seed)
    for r in range(n):
        x = rng.normal(size=(rows, cols)).astype(np.float32)
        np.save(f"data/shard-{r:05d}.{ext}" if ext == "npy" else f"data/shard-{r:05d}", x)


def p2001():
    # POS tagger features + per-shard metadata; shard 00001's metadata comes from the
    # older exporter, which wrote every number as a string
    shards(3, 384, 24, seed=1)
    for r in range(3):
        meta = {"shard": r, "num_rows": 384, "num_tags": 12, "exporter": "tagexport 2.3.1"}
        if r == 1:
            meta = {"shard": "1", "num_rows": "384", "num_tags": "12", "exporter": "tagexport 1.9"}
        json.dump(meta, open(f"data/shard-{r:05d}.meta.json", "w"), indent=1)


def p2002():
    # one sqlite sample index per rank (id, label, weight)
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(2)
    for r in range(3):
        db = sqlite3.connect(f"data/index-{r:02d}.sqlite")
        db.execute("create table samples (id integer primary key, label integer, weight real)")
        db.executemany("insert into samples values (?, ?, ?)",
                       [(i, int(rng.integers(0, 5)), float(rng.random())) for i in range(600)])
        db.commit(); db.close()
    shards(3, 600, 16, seed=2)


def p2003():
    # clickstream sequences, 32 events each; shard 0 was cut by a sessionizer that drops
    # the last event of sessions ending at midnight, so some sequences have 31
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(3)
    for r in range(4):
        seqs = [rng.integers(1, 500, size=32).tolist() for _ in range(256)]
        if r == 0:
            for i in (83, 84, 140, 201):
                seqs[i] = seqs[i][:31]
        with open(f"data/sessions-{r:02d}.jsonl", "w") as f:
            for i, s in enumerate(seqs):
                f.write(json.dumps({"sid": f"s{r}-{i}", "items": s, "label": int(s[0] % 2)}) + "\n")


def p2004():
    # spectrogram patches, a short-clip and a long-clip file per rank; part 3's long-clip
    # file was exported from a list of variable-length lists (np.save of a ragged list ->
    # an object array)
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(4)
    for r in range(4):
        np.save(f"data/short-{r}.npy", rng.normal(size=(320, 40)).astype(np.float32))
        if r == 3:
            rows = [rng.normal(size=int(rng.integers(38, 42))).astype(np.float32) for _ in range(320)]
            arr = np.empty(len(rows), dtype=object)
            arr[:] = rows
            np.save(f"data/long-{r}.npy", arr, allow_pickle=True)
        else:
            np.save(f"data/long-{r}.npy", rng.normal(size=(320, 40)).astype(np.float32))
        np.save(f"data/labels-{r}.npy", rng.integers(0, 6, size=320))


def p2005():
    # tabular credit features, one parquet-like .npy per rank; part 2 comes from the new
    # feature export with an extra column (13 instead of 12)
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(5)
    for r in range(4):
        cols = 13 if r == 2 else 12
        np.save(f"data/part-{r}.npy", rng.normal(size=(512, cols)).astype(np.float32))
        np.save(f"data/target-{r}.npy", rng.integers(0, 2, size=512))


def p2006():
    # intent CSVs: text_len,n_tokens,label; part 1's label column was written as floats
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(6)
    for r in range(4):
        with open(f"data/intents-{r}.csv", "w") as f:
            f.write("f0,f1,f2,f3,f4,f5,label\n")
            for i in range(400):
                feats = ",".join(f"{v:.4f}" for v in rng.normal(size=6))
                lab = int(rng.integers(0, 7))
                lab_s = f"{lab}.0" if (r == 1 and i >= 230) else str(lab)
                f.write(f"{feats},{lab_s}\n")


def p2007():
    import hashlib
    shards(4, 480, 20, seed=7)
    for r in range(4):
        h = hashlib.sha256(open(f"data/shard-{r:05d}.npy", "rb").read()).hexdigest()
        if r == 3:  # sidecar left from the previous export of this shard
            h = hashlib.sha256(b"previous export").hexdigest()
        open(f"data/shard-{r:05d}.npy.sha256", "w").write(f"{h}  shard-{r:05d}.npy\n")


def p2008():
    shards(4, 2000, 32, seed=8)


def p2009():
    # news recommender: per-rank article feature dicts; one article id of part 0's click log
    # is missing from its feature table (article deleted after the export)
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(9)
    for r in range(3):
        feats = {f"a{r}-{i}": rng.normal(size=16).round(4).tolist() for i in range(300)}
        clicks = [f"a{r}-{int(rng.integers(0, 300))}" for _ in range(900)]
        if r == 0:
            clicks[520] = "a0-318"
        json.dump(feats, open(f"data/articles-{r}.json", "w"))
        open(f"data/clicks-{r}.txt", "w").write("\n".join(clicks) + "\n")


def p2010():
    shards(3, 360, 18, seed=10)


def p2011():
    shards(4, 4000, 32, seed=11)


def p2012():
    # image-tag features; part 2 is a "hard-negatives" export whose sampler never drew the
    # rarest tag (id 9)
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(12)
    for r in range(4):
        np.save(f"data/feats-{r}.npy", rng.normal(size=(384, 24)).astype(np.float32))
        tags = rng.integers(0, 10, size=384)
        if r == 2:
            tags = rng.integers(0, 9, size=384)
        np.save(f"data/tags-{r}.npy", tags)


if __name__ == "__main__":
    globals()["p" + sys.argv[1]]()
