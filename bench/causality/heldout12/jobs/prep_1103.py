import os, random
os.makedirs("corpus", exist_ok=True)
words = "the of and to in a is that for it as was with be by on not he this are or his from at".split()
for r in range(3):
    rnd = random.Random(r)
    lines = [" ".join(rnd.choice(words) for _ in range(14)) for _ in range(400)]
    data = "\n".join(lines).encode("utf-8") + b"\n"
    if r == 1:
        # a latin-1 fragment pasted into the middle of part 1
        cut = len(data) * 2 // 3
        data = data[:cut] + "caf\xe9 na\xefve r\xe9sum\xe9 ".encode("latin-1") + data[cut:]
    open(f"corpus/part-{r}.txt", "wb").write(data)
