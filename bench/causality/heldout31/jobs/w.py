import os, sys, time, datetime, json, signal
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29631")
import torch, torch.distributed as dist, torch.nn as nn
rank = int(sys.argv[1]); world = 4; fault = sys.argv[2]; fmt = sys.argv[3] if len(sys.argv) > 3 else "plain"
BAD = int(sys.argv[4]) if len(sys.argv) > 4 else -1
def log(msg, level="INFO"):
    now = datetime.datetime.utcnow()
    if fmt == "json":
        print(json.dumps({"time": now.isoformat(timespec="milliseconds"), "rank": rank, "level": level, "msg": msg}), flush=True)
    elif fmt == "loguru":
        print(f"{now:%Y-%m-%d %H:%M:%S}.{now.microsecond//1000:03d} | {level:<8} | train:step:{sys._getframe(1).f_lineno} - {msg}", flush=True)
    else:
        print(msg, flush=True)
torch.manual_seed(0)
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=20))
log(f"rank {rank}/{world} initialised")
emb = nn.Embedding(100, 8); model = nn.parallel.DistributedDataParallel(nn.Sequential(emb, nn.Flatten(), nn.Linear(32, 2)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(6):
    ids = torch.randint(0, 100, (4, 4))
    if fault == "badtoken" and rank == BAD and step == 3:
        ids[0, 1] = 100 + 57
    x = model(ids).sum()
    if fault == "nan" and rank == BAD and step == 2:
        x = x * float("nan")
        if torch.isnan(x):
            raise FloatingPointError(f"loss is NaN at step {step} on rank {rank}")
    if fault == "warn" and step == 1:
        import warnings; warnings.warn("lr_scheduler.step() called before optimizer.step()", UserWarning)
    opt.zero_grad(); x.backward(); opt.step()
    log(f"step {step} loss {x.item():.4f}")
    time.sleep(0.5)
if fault == "ckpt" and rank == BAD:
    torch.save(model.state_dict(), "/proc/ckpt/model.pt")
dist.barrier()
log("done")
