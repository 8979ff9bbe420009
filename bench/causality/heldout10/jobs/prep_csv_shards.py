"""Write per-rank CSV shards into ./data (shard 2 was produced by concatenating two
exports, so it has a second header line in the middle)."""
import os, random
os.makedirs("data", exist_ok=True)
random.seed(1)
hdr = ",".join([f"feat_{i}" for i in range(16)] + ["label"])
for s in range(4):
    with open(f"data/train-{s:05d}-of-00004.csv", "w") as f:
        f.write(hdr + "\n")
        for i in range(400):
            if s == 2 and i == 213:
                f.write(hdr + "\n")
            f.write(",".join(f"{random.gauss(0,1):.4f}" for _ in range(16)) + f",{random.randrange(4)}\n")
