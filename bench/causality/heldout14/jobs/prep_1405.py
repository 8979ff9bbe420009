"""Writes the image parts for case 1405.  Part 2 contains one image whose pixels were
stored as inf by a broken normalisation (division by a zero max) in the export."""
import os
import torch
os.makedirs("data", exist_ok=True)
for r in range(4):
    g = torch.Generator().manual_seed(r)
    protos = torch.rand(10, 64, generator=g)
    idx = torch.randint(0, 10, (480,), generator=g)
    x = (protos[idx] + 0.1 * torch.randn(480, 64, generator=g)).clamp(0, 1)
    if r == 2:
        x[5 * 32 + 7] = float("inf")
    torch.save(x, f"data/digits8x8-part{r}.pt")
