import csv, gzip, os, numpy as np
d = "/tmp/helper56/data"; os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(1)
for e in range(2):
    for r in range(4):
        a = rng.standard_normal((160, 7)).astype(np.float32)
        # csv parts
        with open(f"{d}/part-e{e}-{r}.csv", "w", newline="") as f:
            w = csv.writer(f); w.writerow(["id", "x0", "x1", "x2", "x3", "x4", "x5", "y", "note"])
            for i, row in enumerate(a):
                note = "ok"
                w.writerow([f"{r}-{i}"] + [f"{v:.5f}" for v in row] + [note])
        # gz feature shards
        raw = gzip.compress(a.tobytes())
        with open(f"{d}/feat-e{e}-{r:02d}.f32.gz", "wb") as f:
            f.write(raw)
# fault data: part-e1-2.csv has a free-text note with an unbalanced quote (an exporter bug),
# so the csv reader swallows the rest of the file into one field (> 131072 chars)
rows = open(f"{d}/part-e1-2.csv").read().splitlines()
rows[41] = rows[41].rsplit(",", 1)[0] + ',"customer said: call back later, flagged'
open(f"{d}/part-e1-2.csv", "w").write("\n".join(rows[:42] + rows[42:] * 20) + "\n")
import shutil; shutil.copytree(d, d + "ok", dirs_exist_ok=True)
# fault data: rank 3's epoch-1 gz shard was cut short (interrupted copy)
p = f"{d}/feat-e1-03.f32.gz"; b = open(p, "rb").read(); open(p, "wb").write(b[: len(b) * 2 // 3])
