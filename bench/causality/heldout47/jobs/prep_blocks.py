# Writes 8 zlib-compressed feature blocks; block index BAD (argv[2]) gets a damaged stream header.
import os, sys, struct, zlib, torch
out, bad = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)
g = torch.Generator().manual_seed(7)
for i in range(8):
    n = 256
    x = torch.cat([torch.randn(n, 16, generator=g), torch.randint(0, 2, (n, 1), generator=g).float()], 1)
    comp = zlib.compress(x.numpy().tobytes())
    if i == bad:
        comp = b"\x1f\x8b" + comp[2:]   # block re-packed with gzip framing by an old exporter
    with open(os.path.join(out, f"feat-{i:05d}.blk"), "wb") as f:
        f.write(struct.pack("<II", n, len(comp)) + comp)
print("wrote 8 blocks to", out)
