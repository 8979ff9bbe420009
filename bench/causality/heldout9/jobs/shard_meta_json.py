# Each rank reads its shard's metadata JSON before building the dataset. Shard 2's meta file was
# cut short by an interrupted upload, so json.load raises JSONDecodeError on rank 2; the others
# fail with Connection closed at the barrier after dataset construction.
import json, logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger("data.shards")
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
root = os.environ["SHARD_ROOT"]
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
log.info("process group ready (world_size=%d)", world)
path = os.path.join(root, f"part-{rank:05d}", "meta.json")
log.info("reading shard metadata from %s", path)
with open(path) as f:
    meta = json.load(f)
log.info("shard has %d samples, %d tokens", meta["num_samples"], meta["num_tokens"])
dist.barrier()
for step in range(10):
    t = torch.randn(256); dist.all_reduce(t)
    if step % 3 == 0:
        log.info("step %d ok", step)
    time.sleep(0.1)
log.info("finished")
