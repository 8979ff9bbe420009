"""Per-sample .pt files plus a file list per rank. One file listed for rank 3
was deleted by a dedup script."""
import os, torch
os.makedirs("samples", exist_ok=True)
g = torch.Generator().manual_seed(915)
for r in range(4):
    names = []
    for i in range(160):
        p = f"samples/r{r}_{i:04d}.pt"
        torch.save((torch.randn(16, generator=g), int(torch.randint(0, 4, (1,), generator=g))), p)
        names.append(p)
    open(f"filelist-{r}.txt", "w").write("\n".join(names) + "\n")
os.remove("samples/r3_0093.pt")
