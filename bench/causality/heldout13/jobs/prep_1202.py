# writes shards/tags-0000N.pt (list of (x, y) batches); in rank 2's shard the label
# matrix of batch 9 was exported with only 5 of the 6 tag columns.
import os
import torch
os.makedirs("shards", exist_ok=True)
for r in range(3):
    g = torch.Generator().manual_seed(100 + r)
    b = []
    for i in range(12):
        x = torch.randn(16, 20, generator=g)
        ncol = 5 if (r == 2 and i == 9) else 6
        y = (torch.rand(16, ncol, generator=g) > 0.7).float()
        b.append((x, y))
    torch.save(b, f"shards/tags-{r:05d}.pt")
