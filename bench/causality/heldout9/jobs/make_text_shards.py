import os, sys
root = sys.argv[1]; n = int(sys.argv[2])
for r in range(n):
    d = os.path.join(root, f"shard{r}"); os.makedirs(d, exist_ok=True)
    for i in range(48):
        p = os.path.join(d, f"doc{i:04d}.txt")
        if r == 2 and i == 29:
            open(p, "wb").write("Caf\xe9 cr\xe8me br\xfbl\xe9e recipe\n".encode("latin-1"))
        else:
            open(p, "w", encoding="utf-8").write(f"document {i} of shard {r}: the quick brown fox\n")
