"""Writes parse shards for case 1406.  Shard 3 contains one 'sentence' that is really a
1,400-token table row glued together; the parser fell back to a right-branching chain, so
that tree is 1,400 levels deep."""
import os, random, sys
sys.setrecursionlimit(10000)
os.makedirs("parses", exist_ok=True)


def rand_tree(rng, n):
    if n == 1:
        return rng.randrange(1, 500)
    k = rng.randrange(1, n)
    return [rand_tree(rng, k), rand_tree(rng, n - k)]


def fmt(t):
    return str(t) if isinstance(t, int) else f"({fmt(t[0])} {fmt(t[1])})"


for r in range(3 + 1):
    rng = random.Random(r)
    ex = []
    for i in range(240):
        ex.append({"tree": rand_tree(rng, rng.randrange(3, 14)), "label": rng.randrange(3)})
    if r == 3:
        chain = rng.randrange(1, 500)
        for _ in range(1400):
            chain = [rng.randrange(1, 500), chain]
        ex[123] = {"tree": chain, "label": 1}
    with open(f"parses/train.{r}.txt", "w") as f:
        for e in ex:
            f.write(f"{e['label']}\t{fmt(e['tree'])}\n")
