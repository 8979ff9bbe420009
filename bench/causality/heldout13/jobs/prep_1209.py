# writes parts/part-R.csv (6 features + target).  Two parts are bad, independently:
#  part-3 has NaN features in the chunk for step 14 (a failed join upstream);
#  part-1 has a truncated row in the chunk for step 14 (a half-written line).
import os, random
os.makedirs("parts", exist_ok=True)
for r in range(4):
    rnd = random.Random(r)
    rows = []
    for i in range(16 * 24):
        feats = [f"{rnd.gauss(0, 1):.4f}" for _ in range(6)]
        if r == 3 and i // 16 == 14 and i % 5 == 0:
            feats[2] = "nan"
        row = feats + [f"{rnd.gauss(2, 1):.4f}"]
        if r == 1 and i == 16 * 14 + 3:
            row = feats[:3] + ["0.2"]
            row[3] = "0.2\x00"
        rows.append(",".join(row))
    open(f"parts/part-{r}.csv", "w").write("\n".join(rows) + "\n")
