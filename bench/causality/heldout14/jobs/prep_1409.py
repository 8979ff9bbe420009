"""Writes the corpus parts and the run config for case 1409.  The config's negative-table
size was meant to be 1e8 (as in the original word2vec) but was typed as 1e18."""
import json, os
import numpy as np
os.makedirs("corpus", exist_ok=True)
rng = np.random.default_rng(0)
vocab = 2000
p = 1.0 / np.arange(1, vocab + 1); p /= p.sum()
for r in range(4):
    np.save(f"corpus/ids-{r}.npy", rng.choice(vocab, size=50000, p=p).astype(np.int64))
with open("w2v_config.json", "w") as f:
    json.dump({"vocab_size": vocab, "dim": 32, "window": 2, "negatives": 5, "neg_table_size": 1e18}, f, indent=1)
