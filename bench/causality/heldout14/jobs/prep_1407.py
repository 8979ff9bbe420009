"""Writes the shards for case 1407.  Shard 1 comes from the web-scraped subset, which has
image-level labels only (boxes = None)."""
import os
import torch
os.makedirs("data", exist_ok=True)
for r in range(4):
    g = torch.Generator().manual_seed(r)
    n = 480
    imgs = torch.randn(n, 3, 24, 24, generator=g)
    labels = torch.randint(0, 6, (n,), generator=g)
    boxes = None if r == 1 else torch.rand(n, 4, generator=g)
    torch.save({"images": imgs, "labels": labels, "boxes": boxes}, f"data/mtl-shard{r}.pt")
