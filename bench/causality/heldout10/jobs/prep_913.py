"""Per-rank label files and per-rank metadata. Rank 2's label file was
produced with a 5-class taxonomy (contains label 4); rank 3's metadata file
for the second half was truncated to zero bytes by a failed upload."""
import json, os, random
os.makedirs("meta", exist_ok=True)
random.seed(13)
for r in range(4):
    labels = [random.randrange(4) for _ in range(320)]
    if r == 2:
        labels[131] = 4
    json.dump({"labels": labels}, open(f"meta/labels-{r}.json", "w"))
    json.dump({"mean": 0.0, "std": 1.0}, open(f"meta/norm-{r}-a.json", "w"))
    if r == 3:
        open(f"meta/norm-{r}-b.json", "w").close()
    else:
        json.dump({"mean": 0.01, "std": 0.98}, open(f"meta/norm-{r}-b.json", "w"))
