import os
os.makedirs("queries", exist_ok=True)
for r in range(4):
    ids = list(range(r * 8, r * 8 + 8))
    if r == 3:
        ids = ids[:7]   # one query id was dropped by dedup on this slice
    open(f"queries/rank{r}.txt", "w").write("\n".join(map(str, ids)) + "\n")
