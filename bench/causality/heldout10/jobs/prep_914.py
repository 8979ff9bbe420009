"""Sensor readings per rank as text. One reading in rank 1's file is 3.4e39
(a units bug upstream); it overflows to inf in float32."""
import os, random
os.makedirs("readings", exist_ok=True)
random.seed(914)
for r in range(3):
    with open(f"readings/site{r}.txt", "w") as f:
        for i in range(480):
            vals = [f"{random.gauss(0, 1):.5f}" for _ in range(16)]
            if r == 1 and i == 203:
                vals[5] = "3.4e39"
            f.write(" ".join(vals) + f" {random.randrange(4)}\n")
