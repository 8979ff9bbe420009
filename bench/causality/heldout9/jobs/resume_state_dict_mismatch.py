# Resume: each rank picks the newest checkpoint in its own local cache dir. Rank 3's cache still
# holds a checkpoint from an older experiment with hidden=96, so load_state_dict raises
# "size mismatch". Peers: Connection closed in the barrier after loading.
import glob, os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
cache = os.path.join(os.environ["CKPT_CACHE"], f"node{rank}")
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10))
ckpts = sorted(glob.glob(os.path.join(cache, "*.pt")), key=os.path.getmtime)
print(f"{rank}: resuming from {ckpts[-1]}", flush=True)
model.load_state_dict(torch.load(ckpts[-1]))
dist.barrier()
for step in range(10):
    g = torch.randn(100); dist.all_reduce(g)
    time.sleep(0.05)
print(f"{rank}: done", flush=True)
