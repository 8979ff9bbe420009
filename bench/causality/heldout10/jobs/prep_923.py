"""Variable-length token sequences per rank, stored as a length header +
tokens. One record in rank 3's file has a garbage length field."""
import os, struct, random
os.makedirs("seqs", exist_ok=True)
random.seed(923)
for r in range(4):
    with open(f"seqs/part{r}.bin", "wb") as f:
        for i in range(600):
            L = random.randint(8, 48)
            if r == 3 and i == 410:
                f.write(struct.pack("<Q", 0x0000_3A00_0000_1F20))
                L2 = 20
                f.write(struct.pack(f"<{L2}H", *[random.randrange(500) for _ in range(L2)]))
                continue
            f.write(struct.pack("<Q", L))
            f.write(struct.pack(f"<{L}H", *[random.randrange(500) for _ in range(L)]))
