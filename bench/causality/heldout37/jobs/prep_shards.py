# builds tiny tokenized text shards with a meta.json each (one shard per worker)
import json, os, sys, random
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
random.seed(7)
for i in range(4):
    d = os.path.join(out, f"shard-{i:05d}")
    os.makedirs(d, exist_ok=True)
    # shard 00002 was re-tokenized after the vocab bump, the others were not
    vocab = ("bpe-8k-v3", 8011) if i == 2 else ("bpe-8k-v2", 8000)
    ids = [random.randrange(vocab[1]) for _ in range(4096)]
    with open(os.path.join(d, "tokens.json"), "w") as f:
        json.dump(ids, f)
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump({"tokenizer": vocab[0], "vocab_size": vocab[1], "n_tokens": len(ids), "seq_len": 32}, f)
