# tiny DDP regressor used by all heldout56 jobs; behaviour chosen by --job
import argparse, csv, gzip, io, logging, os, sys, time, warnings
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--job", required=True)
p.add_argument("--data", default="/tmp/helper56/data")
p.add_argument("--steps", type=int, default=40)
p.add_argument("--fmt", default="plain")  # plain | log | csv
a = p.parse_args()

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
local = int(os.environ.get("LOCAL_RANK", rank))
torch.manual_seed(0)

if a.fmt == "log":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("trainer")
    info = log.info
else:
    def info(msg):
        if a.fmt == "csv":
            print(f"# {msg}", flush=True)
        else:
            print(f"[worker {rank}] {msg}", flush=True)

def load_csv(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append([float(r[k]) for k in ("x0", "x1", "x2", "x3", "x4", "x5")] + [float(r["y"])])
    return torch.tensor(rows)

def load_gz(path):
    with gzip.open(path, "rb") as f:
        buf = f.read()
    arr = np.frombuffer(buf, dtype=np.float32).reshape(-1, 7)
    return torch.from_numpy(arr)

info(f"starting pid={os.getpid()} rank={rank} local_rank={local} world={world} host={os.environ.get('NODE_NAME', 'localhost')}")
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
model = DDP(nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, 10)

if a.job in ("gz", "gzok"):
    warnings.warn("features v1 layout is deprecated; re-export with featurize>=2.0", FutureWarning)
    sched.step()  # before opt.step(): torch's lr_scheduler order UserWarning
    x = torch.zeros(3)
    _ = torch.tensor(x)  # copy-construct UserWarning

def shard(epoch):
    if a.job in ("gz", "gzok"):
        return load_gz(f"{a.data}/feat-e{epoch}-{rank:02d}.f32.gz")
    if a.job == "csvfield":
        return load_csv(f"{a.data}/part-e{epoch}-{rank}.csv")
    g = torch.Generator().manual_seed(rank * 10 + epoch)
    return torch.randn(160, 7, generator=g)

if a.fmt == "csv":
    print("rank,epoch,step,loss,lr,wall", flush=True)
t0 = time.time(); step = 0
for epoch in range(2):
    data = shard(epoch)
    info(f"epoch {epoch}: {len(data)} rows")
    for i in range(0, len(data), 16):
        b = data[i:i + 16]
        loss = nn.functional.mse_loss(model(b[:, :6]).squeeze(-1), b[:, 6])
        opt.zero_grad(); loss.backward()
        if a.job == "rscatter" and rank == 1 and step == 12 and os.environ.get("TRAIN_SHARD_GRADS") == "1":
            info("step 12: sharded gradient sync enabled (TRAIN_SHARD_GRADS=1)")
            flat = torch.cat([q.grad.flatten() for q in model.parameters()])
            out = torch.zeros(flat.numel() // world + 1)
            dist.reduce_scatter(out, list(torch.nn.functional.pad(flat, (0, out.numel() * world - flat.numel())).chunk(world)))
        opt.step()
        if a.job == "leaf" and rank == 0 and step == 15:
            info("step 15: sanitizing weights before histogram export")
            for prm in model.module.parameters():
                prm.clamp_(-0.5, 0.5)
        t = torch.tensor([loss.item()]); dist.all_reduce(t); avg = t.item() / world
        if a.fmt == "csv":
            print(f"{rank},{epoch},{step},{loss.item():.5f},{opt.param_groups[0]['lr']:.4f},{time.time()-t0:.2f}", flush=True)
        elif step % 5 == 0:
            info(f"epoch {epoch} step {step} loss {loss.item():.4f} avg {avg:.4f}")
        step += 1
        time.sleep(0.05)
    sched.step()
dist.barrier()
info(f"done after {step} steps")
dist.destroy_process_group()
