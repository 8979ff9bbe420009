# Writes per-rank resume checkpoints for 4603; rank 1's file is overwritten by a partial
# HTML error page (as if a download proxy returned an error page instead of the blob).
import os, torch
D = "/tmp/helper46/ckpt"; os.makedirs(D, exist_ok=True)
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
for r in range(3):
    # legacy (non-zip) serialization, as older trainers wrote it
    torch.save({"model": m.state_dict(), "step": 200, "rank": r}, f"{D}/rng-opt-shard{r}.pt",
               _use_new_zipfile_serialization=False)
with open(f"{D}/rng-opt-shard1.pt", "wb") as f:
    f.write(b"<html><head><title>503 Service Unavailable</title></head>\n")
