# 4804: started by hand (bash loop, env vars); each rank logs to runs/$RUN_ID/rank_$RANK.log
import os, sys, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
run_dir = os.path.join("runs", os.environ["RUN_ID"]); os.makedirs(run_dir, exist_ok=True)
log = logging.getLogger("lm")
log.setLevel(logging.INFO)
h = logging.FileHandler(os.path.join(run_dir, f"rank_{rank}.log"))
h.setFormatter(logging.Formatter("%(asctime)s | %(levelname)-7s | %(filename)s:%(lineno)d | %(message)s"))
log.addHandler(h)
sys.excepthook = lambda t, v, tb: log.critical("uncaught exception", exc_info=(t, v, tb))

# tokens-per-step counter: the shard's metadata decides how it is counted
SHARD_META = {0: {"packer": "tokpack 1.4", "count_dtype": "float32"}, 1: {"packer": "tokpack 1.4", "count_dtype": "float32"},
              2: {"packer": "tokpack 2.0", "count_dtype": "int64"}, 3: {"packer": "tokpack 1.4", "count_dtype": "float32"}}   # shard 2 re-packed with a newer tool

dist.init_process_group("gloo", timeout=timedelta(seconds=25))
log.info("rank %d of %d ready", rank, world)
log.info("shard lm-train-%05d: packer=%s count_dtype=%s", rank, SHARD_META[rank]["packer"], SHARD_META[rank]["count_dtype"])
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Embedding(1000, 32), nn.Flatten(), nn.Linear(32 * 16, 1000)))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
g = torch.Generator().manual_seed(rank)
dtype = getattr(torch, SHARD_META[rank]["count_dtype"])
seen = torch.zeros(1, dtype=dtype)
for step in range(1, 51):
    x = torch.randint(0, 1000, (16, 16), generator=g); y = torch.randint(0, 1000, (16,), generator=g)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    seen += x.numel()
    if step % 10 == 0:
        tot = seen.clone()
        dist.all_reduce(tot)
        log.info("step %d loss %.4f tokens(global) %d", step, loss.item(), int(tot.item()))
    time.sleep(0.04)
log.info("done")
dist.destroy_process_group()
