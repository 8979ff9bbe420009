import json, os, random
os.makedirs("data", exist_ok=True)
for r in range(3):
    rnd = random.Random(r)
    with open(f"data/tagged-{r}.jsonl", "w") as f:
        for i in range(120):
            n = rnd.randint(4, 12)
            ids = [rnd.randint(1, 199) for _ in range(n)]
            tags = [rnd.randint(0, 5) for _ in range(n)]
            if r == 1 and i == 77:
                ids = ids[0]           # single-token sentence stored as a bare int
                tags = tags[0:1]
            f.write(json.dumps({"ids": ids, "tags": tags}) + "\n")
