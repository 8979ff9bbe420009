"""Precomputed teacher logits per shard. Shard 0 was produced with an older
teacher head (10 classes instead of 12)."""
import os, torch
os.makedirs("teacher", exist_ok=True)
for s in range(3):
    g = torch.Generator().manual_seed(s)
    n_cls = 10 if s == 0 else 12
    torch.save({"x": torch.randn(256, 16, generator=g), "logits": torch.randn(256, n_cls, generator=g),
                "y": torch.randint(0, 10, (256,), generator=g)}, f"teacher/shard{s}.pt")
