#!/usr/bin/env python3
"""Writes the input files of a case into the current directory: python3 prep.py NNNN"""
import io
import os
import sys
import tarfile

import numpy as np


def prep_1704():
    # 8 webdataset shards of 64 utterances (40 mel x 50 frames); train-0006.tar was cut
    # short by an interrupted `gsutil cp` (first 60% of the bytes only)
    os.makedirs("shards", exist_ok=True)
    rng = np.random.default_rng(0)
    for s in range(8):
        path = f"shards/train-{s:04d}.tar"
        with tarfile.open(path, "w") as tf:
            for u in range(64):
                key = f"utt{s:02d}{u:04d}"
                buf = io.BytesIO()
                np.save(buf, rng.standard_normal((40, 50)).astype(np.float32))
                for ext, data in (("npy", buf.getvalue()), ("cls", str(rng.integers(12)).encode())):
                    ti = tarfile.TarInfo(f"{key}.{ext}")
                    ti.size = len(data)
                    tf.addfile(ti, io.BytesIO(data))
    p = "shards/train-0006.tar"
    data = open(p, "rb").read()
    open(p, "wb").write(data[: int(len(data) * 0.6)])


def prep_1705():
    # three CSV partitions written by the export job; row counts follow the upstream split
    os.makedirs("data", exist_ok=True)
    rng = np.random.default_rng(5)
    for part, n in enumerate((320, 289, 352)):
        x = rng.standard_normal((n, 12))
        y = (x[:, 0] + 0.5 * x[:, 3] > 0.8).astype(int)
        with open(f"data/part-{part:03d}.csv", "w") as f:
            f.write(",".join([f"f{i}" for i in range(12)] + ["label"]) + "\n")
            for xi, yi in zip(x, y):
                f.write(",".join(f"{v:.5f}" for v in xi) + f",{yi}\n")


def prep_1707():
    # per-site sensor windows (3 axes + target channel, 64 samples); site03's export has one
    # window where the accelerometer wrote its saturation sentinel 3.4e38 in place of values
    os.makedirs("windows", exist_ok=True)
    rng = np.random.default_rng(7)
    for site in range(4):
        w = rng.standard_normal((320, 4, 64)).astype(np.float32)
        if site == 3:
            w[181, 1, 20:28] = np.float32(3.4e38)
        np.save(f"windows/site{site:02d}.npy", w)


def prep_1708():
    # three shards of 240 frames (96 features + 34 keypoint coords); shard1 is still in the
    # old per-frame export format
    rng = np.random.default_rng(8)
    for sh in range(3):
        d = f"data/shard{sh}"
        os.makedirs(d, exist_ok=True)
        a = rng.standard_normal((240, 130)).astype(np.float32)
        if sh == 1:
            for i, row in enumerate(a):
                np.save(f"{d}/frame_{i:06d}.npy", row)
        else:
            np.save(f"{d}/frames.npy", a)


if __name__ == "__main__":
    globals()[f"prep_{sys.argv[1]}"]()
