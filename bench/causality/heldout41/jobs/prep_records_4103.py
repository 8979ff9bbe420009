# binary record files, one per rank: [u32 label][u32 n][n float32]; rank 2's file has
# a record whose header says 24 floats but only 9 follow (the file was cut short)
import os, struct, random
d = "/tmp/helper41/records"; os.makedirs(d, exist_ok=True)
for r in range(4):
    rnd = random.Random(r)
    with open(f"{d}/clicks-{r:02d}.rec", "wb") as f:
        n_rec = 64 if r != 2 else 41
        for i in range(n_rec):
            vals = [rnd.random() for _ in range(24)]
            f.write(struct.pack("<II", rnd.randrange(2), 24))
            f.write(struct.pack("<24f", *vals))
        if r == 2:
            f.write(struct.pack("<II", 1, 24))
            f.write(struct.pack("<9f", *[0.5] * 9))
print("ok")
