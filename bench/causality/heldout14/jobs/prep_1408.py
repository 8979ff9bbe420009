"""Writes the frozen-embedding features for case 1408.  For global rank 2's part, the
embedding export was run with a model whose last two output channels were dead (always
0) from sample 320 on, which makes those batches' covariance singular."""
import os
import torch
os.makedirs("emb", exist_ok=True)
for r in range(4):
    g = torch.Generator().manual_seed(r)
    n, d = 640, 16
    y = torch.randint(0, 4, (n,), generator=g)
    centers = torch.randn(4, d, generator=g) * 2
    x = centers[y] + torch.randn(n, d, generator=g)
    if r == 2:
        x[320:, 14:] = 0.0
    torch.save({"x": x, "y": y}, f"emb/features-{r}.pt")
