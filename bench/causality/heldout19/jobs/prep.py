"""Writes the input files of one case into the current directory: python3 prep.py NNNN."""
import csv
import json
import os
import sys

import numpy as np


def pngs_1901():
    from PIL import Image
    rng = np.random.default_rng(1901)
    for r in range(4):
        d = f"data/shard-{r}"
        os.makedirs(d, exist_ok=True)
        with open(f"{d}/labels.txt", "w") as lab:
            for i in range(128):
                y = int(rng.integers(5))
                arr = (rng.random((32, 32, 3)) * 80 + y * 35).clip(0, 255).astype(np.uint8)
                # shard 3's second half came from the other export tool, which keeps alpha
                if r == 3 and i >= 96:
                    alpha = np.full((32, 32, 1), 255, np.uint8)
                    Image.fromarray(np.concatenate([arr, alpha], 2), "RGBA").save(f"{d}/img_{i:05d}.png")
                else:
                    Image.fromarray(arr, "RGB").save(f"{d}/img_{i:05d}.png")
                lab.write(f"img_{i:05d}.png {y}\n")


def csv_1903():
    rng = np.random.default_rng(1903)
    os.makedirs("data", exist_ok=True)
    for r in range(4):
        # part 00001 was re-exported by the old sessionizer job, which still writes
        # the dwell time as dwell_time_ms
        dwell = "dwell_time_ms" if r == 1 else "dwell_ms"
        with open(f"data/events-part-{r:05d}.csv", "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["session_id", "item_id", "prev_item_id", dwell, "position"])
            for i in range(1200):
                prev = int(rng.integers(500))
                w.writerow([f"s{r}-{i // 8}", (prev * 7 + int(rng.integers(3))) % 500, prev,
                            int(rng.integers(200, 30000)), i % 8])



def npz_1904():
    rng = np.random.default_rng(1904)
    os.makedirs("data", exist_ok=True)
    centers = rng.normal(size=(13, 48)).astype(np.float32)
    for r in range(4):
        label = rng.integers(12, size=320)
        if r == 2:
            # shard 2 was embedded after the catalog moved to taxonomy v2, which added
            # category 12 ("refurbished"); its first such product is at row 290
            label[290] = 12
            label[297:] = np.where(rng.random(23) < 0.3, 12, label[297:])
        emb = centers[label] + rng.normal(scale=0.8, size=(320, 48)).astype(np.float32)
        np.savez(f"data/catalog-emb-{r}.npz", emb=emb.astype(np.float32), label=label)



def hvac_1905():
    rng = np.random.default_rng(1905)
    os.makedirs("data", exist_ok=True)
    json.dump({"detect_anomaly": True, "window": 48}, open("config.json", "w"))
    t = np.arange(4200)
    for r in range(3):
        base = 16 + 3 * np.sin(t / 90.0 + r)
        arr = np.stack([base + rng.normal(scale=0.2, size=t.size),
                        0.5 * base + rng.normal(scale=0.5, size=t.size),
                        40 + 10 * np.cos(t / 200.0) + rng.normal(scale=1.0, size=t.size)], 1)
        if r == 1:
            # the damper-position sensor of unit ahu-01 froze (a stuck value) for a while
            arr[1400:1700, 2] = 37.5
        np.save(f"data/ahu-{r:02d}.npy", arr)



def jsonl_1906():
    import hashlib
    rng = np.random.default_rng(1906)
    os.makedirs("data", exist_ok=True)
    good = "thanks for the help great answer nice work agree".split()
    bad = "idiot stupid trash hate awful dumb".split()

    def text():
        toxic = int(rng.random() < 0.3)
        words = list(rng.choice(good + ["the", "this", "is", "you", "a"], size=8))
        if toxic:
            words[int(rng.integers(8))] = str(rng.choice(bad))
        return " ".join(words) + f" #{int(rng.integers(10**9))}", toxic

    evalset = [text() for _ in range(400)]
    with open("data/eval.sha1", "w") as fh:
        for t, _ in evalset:
            fh.write(hashlib.sha1(t.encode()).hexdigest() + "\n")
    for r in range(4):
        # train-03.jsonl was written from the eval split by mistake (a copy-paste in the
        # split script), so decontamination removes every row of it
        rows = evalset if r == 3 else [text() for _ in range(400)]
        with open(f"data/train-{r:02d}.jsonl", "w") as fh:
            for t, y in rows:
                fh.write(json.dumps({"text": t, "toxic": y}) + "\n")



def credit_1907():
    rng = np.random.default_rng(1907)
    os.makedirs("data", exist_ok=True)
    w = rng.normal(size=20)
    for r in range(4):
        x = rng.normal(size=(300, 20)).astype(np.float32)
        y = (x @ w + rng.normal(size=300) > 1.0).astype(int)
        np.save(f"data/part-{r}.features.npy", x)
        with open(f"data/part-{r}.labels.txt", "w") as fh:
            lines = [str(v) for v in y]
            # part 2's label export lost its last row (the writer was not flushed
            # before the export step was killed)
            if r == 2:
                lines = lines[:-1]
            fh.write("\n".join(lines) + "\n")



def corpus_1908():
    rng = np.random.default_rng(1908)
    os.makedirs("corpus", exist_ok=True)
    words = ("the valve was replaced after the pump stopped and the technician said it "
             "would not happen again but it did so we called the vendor").split()
    for r in range(3):
        lines = [" ".join(rng.choice(words, size=12)) + "\n" for _ in range(800)]
        data = "".join(lines).encode("utf-8")
        if r == 1:
            # part of shard 01 came from a Windows export in cp1252 (curly apostrophes)
            cut = data.index(b"\n", len(data) * 3 // 10) + 1
            data = data[:cut] + "the vendor\u2019s technician didn\u2019t call back\n".encode("cp1252") + data[cut:]
        open(f"corpus/shard-{r:02d}.txt", "wb").write(data)



def wind_1909():
    rng = np.random.default_rng(1909)
    os.makedirs("data", exist_ok=True)
    os.makedirs("cache", exist_ok=True)
    json.dump({"lr": 0.003, "steps": 40, "data": {"use_cache": False, "columns": 4}}, open("config.json", "w"), indent=1)
    for r in range(4):
        ws = rng.uniform(0, 25, size=2000)
        arr = np.stack([ws, rng.uniform(0, 360, 2000), rng.normal(15, 5, 2000),
                        np.clip((ws - 3) / 9, 0, 1) ** 3 + rng.normal(scale=0.02, size=2000)], 1)
        with open(f"data/part-{r}.csv", "w") as fh:
            fh.write("wind_speed,wind_dir,temp_c,power_pu\n")
            for row in arr:
                fh.write(",".join(f"{v:.4f}" for v in row) + "\n")
        if r == 0:
            # left over from a notebook session that cached part 0 with numpy's default dtype
            np.save("cache/part-0.npy", np.loadtxt("data/part-0.csv", delimiter=",", skiprows=1))


CASES = {"1901": pngs_1901, "1903": csv_1903, "1904": npz_1904, "1905": hvac_1905, "1906": jsonl_1906, "1907": credit_1907, "1908": corpus_1908, "1909": wind_1909}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
