import os, torch
os.makedirs("data", exist_ok=True)
for r in range(4):
    g = torch.Generator().manual_seed(r)
    x = torch.randn(320, 16, generator=g)
    y = torch.randint(0, 5, (320,), generator=g)
    if r == 2:
        y[203] = 5          # one bad label in shard 2 (labels are 0..4)
    torch.save({"x": x, "y": y}, f"data/shard{r}.pt")
