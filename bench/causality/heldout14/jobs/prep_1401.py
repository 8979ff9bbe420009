"""Writes the per-rank telemetry shards for case 1401.  One sensor export in shard 2 has a
gap that the exporter wrote as the string "n/a" instead of a number."""
import json, math, os, random
os.makedirs("data", exist_ok=True)
world = 3
for r in range(world):
    rng = random.Random(r)
    with open(f"data/telemetry-{r:05d}-of-{world:05d}.jsonl", "w") as f:
        for i in range(256):
            ph = rng.random() * 6.28
            vals = [round(math.sin(ph + 0.3 * t) + 0.1 * rng.gauss(0, 1), 4) for t in range(32)]
            if r == 2 and i == 201:
                vals[17] = "n/a"
            f.write(json.dumps({"id": f"dev{r}-{i:04d}", "values": vals}) + "\n")
