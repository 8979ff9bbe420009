"""Tabular shards: 12 numeric columns + a categorical 'region' column.
Shard 1 (a newer export) contains two extra region codes."""
import os, random
os.makedirs("data", exist_ok=True)
random.seed(4)
for s in range(3):
    regions = ["eu", "us", "apac", "latam"] + (["mena", "ssa"] if s == 1 else [])
    with open(f"data/part-{s}.tsv", "w") as f:
        f.write("\t".join([f"x{i}" for i in range(12)] + ["region", "label"]) + "\n")
        for i in range(300):
            f.write("\t".join(f"{random.gauss(0,1):.3f}" for _ in range(12)) + f"\t{random.choice(regions)}\t{random.randrange(4)}\n")
