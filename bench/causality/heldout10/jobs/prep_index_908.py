"""Binary sample files + small index headers. data/part-3b.idx is stale (v1)."""
import os, struct, torch
os.makedirs("data", exist_ok=True)
for r in range(4):
    for part in "ab":
        n = 96
        x = torch.randn(n, 17, generator=torch.Generator().manual_seed(ord(part) * 10 + r))
        x[:, -1] = torch.randint(0, 4, (n,)).float()
        x.numpy().tofile(f"data/part-{r}{part}.bin")
        ver = 1 if (r == 3 and part == "b") else 2
        with open(f"data/part-{r}{part}.idx", "wb") as f:
            f.write(b"SIDX" + struct.pack("<II", ver, n))
