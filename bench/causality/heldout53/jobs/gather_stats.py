# 5301: per-rank logging files; all_gather_object of per-rank stats; rank 2 keeps its open
# metrics file handle in the stats dict (fault planted via its "keep_handle" debug path).
import os, sys, time, logging, io
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
os.makedirs("logs", exist_ok=True)
log = logging.getLogger(f"train.r{rank}")
h = logging.FileHandler(f"logs/worker-{os.getpid()}.log")
h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
log.addHandler(h); log.setLevel(logging.INFO)
def excepthook(t, v, tb):
    log.error("unhandled exception", exc_info=(t, v, tb))
sys.excepthook = excepthook
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
log.info("init done: world_size=%d pid=%d", world, os.getpid())
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
g = torch.Generator().manual_seed(100 + rank)
metrics_path = f"/tmp/hx53/5301/metrics-{rank}.csv"
os.makedirs(os.path.dirname(metrics_path), exist_ok=True)
mf = open(metrics_path, "w")
for step in range(1, 41):
    x = torch.randn(8, 16, generator=g); y = torch.randint(0, 4, (8,), generator=g)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    mf.write(f"{step},{loss.item():.4f}\n")
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss.item())
        stats = {"rank": rank, "step": step, "loss": loss.item(), "n": 8 * step}
        if rank == 2 and step == 20:
            # debug leftover: attach the sink so rank 0 can flush it
            stats["sink"] = mf
        out = [None] * world
        dist.all_gather_object(out, stats)
        if rank == 0:
            log.info("gathered stats: mean loss %.4f", sum(s["loss"] for s in out) / world)
    time.sleep(0.05)
log.info("training done")
dist.destroy_process_group()
