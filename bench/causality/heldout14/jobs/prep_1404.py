"""Writes packed point-cloud shards for case 1404.  The upload of shard-001's points.bin
was cut short: the index still lists all samples, but the last part of the points file is
missing, so the offsets of samples 200+ point past its end."""
import os
import struct
import torch
for r in range(3):
    g = torch.Generator().manual_seed(r)
    d = f"clouds/shard-{r:03d}"
    os.makedirs(d, exist_ok=True)
    n_samples, n_pts = 320, 128
    labels = torch.randint(0, 5, (n_samples,), generator=g)
    pts = torch.randn(n_samples, n_pts, 3, generator=g) * (1 + labels.view(-1, 1, 1).float())
    data = pts.numpy().tobytes()
    if r == 1:
        data = data[:200 * n_pts * 12]
    with open(os.path.join(d, "points.bin"), "wb") as f:
        f.write(data)
    with open(os.path.join(d, "index.bin"), "wb") as f:
        for i in range(n_samples):
            f.write(struct.pack("<iii", i * n_pts * 12, n_pts, int(labels[i])))
