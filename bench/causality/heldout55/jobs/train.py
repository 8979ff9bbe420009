# tiny DDP jobs for held-out set 55; fault chosen by --case
import argparse, os, sys, time, math, struct, logging, subprocess, warnings
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--case", required=True)
p.add_argument("--steps", type=int, default=40)
p.add_argument("--local_rank", "--local-rank", type=int, default=None)
a = p.parse_args()

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
local_rank = a.local_rank if a.local_rank is not None else int(os.environ.get("LOCAL_RANK", rank))
DATA = os.environ.get("DATA_DIR", "/tmp/hx55/data")

if a.case == "logpid":
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="%(asctime)s %(process)d %(levelname)s %(message)s")
    log = logging.getLogger("trainer")
    def say(m): log.info(m)
else:
    def say(m): print(m, flush=True)

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(rank)
model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

# ---- per-rank data sizes ----
shard_rows = {0: 640, 1: 640, 2: 640, 3: 640}
if a.case == "lrsched":
    shard_rows[2] = 24  # rank 2's shard after dedup
rows = shard_rows.get(rank, 640)
bs = 32

def lr_at(step, total_steps):
    # linear warmup for 5% of this rank's steps-per-epoch, then cosine
    steps_per_epoch = rows // bs
    warmup = int(0.05 * steps_per_epoch * 4)
    if step < 10:  # head-only phase, fixed lr
        return 0.01
    if step < 10 + warmup or warmup == 0:
        return 0.1 * min(1.0, (step - 10) / warmup)
    prog = (step - 10 - warmup) / (total_steps - 10 - warmup)
    return 0.05 * (1 + math.cos(math.pi * prog))

def collate(batch):
    def flatten(x):
        if isinstance(x, (list, tuple)):
            out = []
            for e in x:
                out.extend(flatten(e))
            return out
        return [x]
    feats = [torch.tensor(flatten(s["f"]), dtype=torch.float32) for s in batch]
    return torch.stack(feats), torch.tensor([s["y"] for s in batch])

def make_batch(step):
    g = torch.Generator().manual_seed(rank * 1000 + step)
    if a.case == "collate":
        samples = []
        for i in range(bs):
            f = [[float(v) for v in torch.randn(8, generator=g)], [float(v) for v in torch.randn(8, generator=g)]]
            samples.append({"f": f, "y": int(torch.randint(0, 4, (1,), generator=g))})
        if rank == 0 and step == 14:
            # a sample whose nested feature list refers to itself (bad augmentation cache)
            bad = samples[5]["f"]
            bad[1].append(bad)
        return collate(samples)
    return torch.randn(bs, 16, generator=g), torch.randint(0, 4, (bs,), generator=g)

def read_header(path):
    with open(path, "rb") as fh:
        magic, n = struct.unpack("<4sQ", fh.read(12))
    return magic, n

if a.case == "logpid":  # this job's logging carries only the pid; the launcher maps pids to ranks
    say(f"worker start on {os.uname().nodename}, world {world}, {rows} rows")
else:
    say(f"[{os.uname().nodename}] rank {rank}/{world} local_rank {local_rank} pid {os.getpid()} start, {rows} rows")
R = "" if a.case == "logpid" else f"rank {rank} "
if a.case == "struct":
    magic, n = read_header(f"{DATA}/feat-{rank:02d}.bin")
    say(f"rank {rank}: feature file feat-{rank:02d}.bin magic={magic!r} n={n}")

if a.case == "healthy":
    warnings.warn("torch.distributed.reduce_op is deprecated", UserWarning)

for step in range(a.steps):
    x, y = make_batch(step)
    if a.case == "lrsched":
        for gparam in opt.param_groups:
            gparam["lr"] = lr_at(step, a.steps)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if a.case == "subproc" and rank == 1 and step == 12:
        say(f"rank 1: step 12: syncing shard cache with rsync-helper")
        subprocess.run(["sleep", "3600"])  # helper waits forever on a dead mount
    if a.case == "logpid" and step == 20:
        path = f"{DATA}/val-{rank:02d}.pt"
        say(f"epoch 0 done, loading validation split {path}")
        val = torch.load(path)
        say(f"val rows {val.shape[0]}")
    if step % 5 == 0 or step == a.steps - 1:
        say(f"{R}step {step} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.4f}")
    time.sleep(0.3)
say(f"{R}done")
dist.destroy_process_group()
