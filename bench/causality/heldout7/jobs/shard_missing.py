# Each rank loads its own pre-tokenized shard; one shard file was never written.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
data_dir = os.environ.get("DATA_DIR", "/tmp/denpex-heldout7/data")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
print("loading shards from", data_dir)
path = os.path.join(data_dir, f"train-{rank:05d}-of-{world:05d}.pt")
shard = torch.load(path)
print("loaded", shard.shape[0], "examples")
dist.barrier()
for step in range(5):
    x = shard[step * 4:(step + 1) * 4].float().mean().reshape(1)
    dist.all_reduce(x)
    print("step", step, "mean", round(x.item(), 4))
    time.sleep(0.2)
