#!/usr/bin/env python3
"""Builds the input files of one case in the current directory: python3 prep.py NNNN"""
import json, os, sys
import numpy as np
import torch

case = sys.argv[1]
rng = np.random.default_rng(int(case))


def p1601():
    # intent classifier: features + labels per shard.  featurize v1 wrote int64 labels;
    # shard 00002 was re-exported with featurize v2, which writes int32 labels.
    os.makedirs("data", exist_ok=True)
    w = rng.normal(size=(64, 12))
    for k in range(3):
        x = rng.normal(size=(480, 64)).astype(np.float32)
        y = (x @ w).argmax(1)
        y = y.astype(np.int32 if k == 2 else np.int64)
        np.save(f"data/shard-{k:05d}.x.npy", x)
        np.save(f"data/shard-{k:05d}.y.npy", y)
        json.dump({"featurize": "v2" if k == 2 else "v1", "n": 480}, open(f"data/shard-{k:05d}.json", "w"))


def p1602():
    # per-worker overrides left over from the GPU cluster config
    json.dump({"defaults": {"device": "cpu", "lr": 3e-4, "batch_size": 32},
               "workers": {"0": {}, "1": {"device": "cuda:1"}, "2": {}}},
              open("worker_overrides.json", "w"), indent=1)


def p1603():
    # feature caches for the ASR job; the cache of worker 3 is a FIFO left behind by the
    # streaming feature extractor (which is not running any more)
    os.makedirs("cache", exist_ok=True)
    for k in range(4):
        for ep in range(3):
            path = f"cache/feats-w{k}-e{ep}.npy"
            if k == 3 and ep == 1:
                os.mkfifo(path)
            else:
                np.save(path, rng.normal(size=(200 * 16, 40)).astype(np.float32))


def p1604():
    # session lengths (items per session) of each worker's shard; shard 1 holds the
    # sessions of a crawler that was not filtered out upstream
    for k in range(3):
        mean = 1200 if k == 1 else 40
        np.save(f"sessions-w{k}.npy", rng.poisson(mean, size=4000).clip(1))


def p1605():
    # char-LM windows: (doc_id per window).  Worker shards are lists of documents with their
    # lengths in windows.  Shard 2 holds a long document starting at window 7.
    docs = {0: [1] * 40, 1: [1] * 40, 2: [1] * 7 + [30] + [1] * 3}
    json.dump({str(k): v for k, v in docs.items()}, open("docs.json", "w"))


def p1607():
    g = torch.Generator().manual_seed(7)
    x = torch.randn(1002, 20, generator=g)
    y = (x[:, :5].sum(1) > 0).long()
    torch.save({"x": x, "y": y}, "churn.pt")


def p1608():
    # pretrained encoder weights, copied into a node-local cache per worker
    torch.manual_seed(0)
    enc = torch.nn.Sequential(torch.nn.Linear(32, 128), torch.nn.ReLU(), torch.nn.Linear(128, 128))
    torch.save(enc.state_dict(), "encoder.pt")
    blob = open("encoder.pt", "rb").read()
    for k in range(3):
        os.makedirs(f"localcache/w{k}", exist_ok=True)
        with open(f"localcache/w{k}/encoder.pt", "wb") as f:
            # the copy for worker 1 was cut short (the rsync was interrupted)
            f.write(blob[: len(blob) * 3 // 5] if k == 1 else blob)


def p1609():
    # token-classification shards: per-worker metadata for two shards
    os.makedirs("meta", exist_ok=True)
    for k in range(4):
        for s in range(2):
            m = {"shard": s, "worker": k, "seq_len": 24, "n": 400}
            txt = json.dumps(m)
            if k == 3 and s == 1:
                txt = txt[:31]  # the metadata file was written half-way
            open(f"meta/w{k}-s{s}.json", "w").write(txt)
        # token ids and per-token labels for the first shard; labels are cut to seq_len,
        # token lists are cut by the tokenizer, which keeps one extra [SEP] for some inputs
        seqs = []
        for i in range(400):
            n = int(rng.integers(10, 24))
            if k == 1 and i == 12 * 16 + 5:
                n = 25  # tokenizer emitted 25 ids for this one
            toks = rng.integers(5, 500, size=n).tolist()
            labs = rng.integers(0, 9, size=min(n, 24)).tolist()
            seqs.append([toks, labs])
        json.dump(seqs, open(f"meta/w{k}-s0.tokens.json", "w"))


globals()["p" + case]()
