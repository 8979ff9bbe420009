# Writes the per-rank shards for shard_missing.py, leaving one out.
import os, sys, torch
d, world, missing = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(d, exist_ok=True)
for r in range(world):
    p = os.path.join(d, f"train-{r:05d}-of-{world:05d}.pt")
    if os.path.exists(p):
        os.remove(p)
    if r != missing:
        torch.save(torch.randint(0, 100, (40, 16)), p)
