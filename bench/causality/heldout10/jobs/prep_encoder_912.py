"""Pretrained encoder weights staged into a per-slot local cache. The copy for
slot 2 was cut short (half the bytes)."""
import os, sys, torch
sys.path.insert(0, ".")
from trainlib import TinyMLP
m = TinyMLP(d_hidden=64)
torch.save({"state_dict": m.state_dict(), "meta": {"arch": "mlp64", "epoch": 40}}, "encoder.pt")
blob = open("encoder.pt", "rb").read()
for r in range(4):
    os.makedirs(f"cache/slot{r}", exist_ok=True)
    with open(f"cache/slot{r}/encoder.pt", "wb") as f:
        f.write(blob[: len(blob) // 2] if r == 2 else blob)
