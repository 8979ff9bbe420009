"""Write token shards + a manifest with sha256 sums. Shard 6 got re-generated
after the manifest was written, so its checksum no longer matches."""
import hashlib, json, os, torch
os.makedirs("shards", exist_ok=True)
man = {}
for s in range(9):
    t = torch.randint(0, 1000, (64, 16), generator=torch.Generator().manual_seed(s))
    p = f"shards/tok-{s:04d}.pt"
    torch.save(t, p)
    man[p] = hashlib.sha256(open(p, "rb").read()).hexdigest()
t = torch.randint(0, 1000, (64, 16), generator=torch.Generator().manual_seed(99))
torch.save(t, "shards/tok-0006.pt")
json.dump(man, open("shards/MANIFEST.json", "w"), indent=1)
