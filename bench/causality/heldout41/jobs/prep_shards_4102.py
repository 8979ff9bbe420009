# writes per-rank second-stage shards; rank 1's shard 1 is cut short (interrupted copy)
import os, torch
d = "/tmp/helper41/shards"; os.makedirs(d, exist_ok=True)
for r in range(4):
    for k in range(2):
        g = torch.Generator().manual_seed(r * 10 + k)
        p = f"{d}/tok-r{r}-s{k}.pt"
        torch.save({"ids": torch.randint(0, 500, (40, 16), generator=g)}, p)
p = f"{d}/tok-r1-s1.pt"
data = open(p, "rb").read()
open(p, "wb").write(data[: len(data) // 2])
print("wrote shards; truncated", p)
