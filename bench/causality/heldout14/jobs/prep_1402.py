"""Writes pre-tokenized shards for case 1402.  Shard 1 was re-tokenized with the newer
32k-piece tokenizer, so some of its ids are >= 30000 (the model's vocab size)."""
import os
import torch
os.makedirs("tokens", exist_ok=True)
for r in range(3):
    g = torch.Generator().manual_seed(100 + r)
    n, L = 512, 40
    labels = torch.randint(0, 12, (n,), generator=g)
    ids = torch.randint(5, 29000, (n, L), generator=g)
    ids[:, :3] = (labels * 97 + 11).unsqueeze(1)          # intent-bearing tokens
    lens = torch.randint(12, L, (n,), generator=g)
    ids[torch.arange(L).unsqueeze(0) >= lens.unsqueeze(1)] = 0
    if r == 1:
        new_pieces = torch.randint(30000, 32000, (n, L), generator=g)
        mask = (torch.rand(n, L, generator=g) < 0.02) & (ids > 0) & (torch.arange(n) >= 96).unsqueeze(1)
        ids = torch.where(mask, new_pieces, ids)
    torch.save({"input_ids": ids, "labels": labels}, f"tokens/intents-train-{r}.pt")
