"""Each rank caches projected features to local scratch; structured JSON logging."""
import json
import os
import sys
import time
import traceback
import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset, seed_everything

RANK = int(os.environ["RANK"])


def jlog(level, msg, **kw):
    rec = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S") + f".{int(time.time()*1000)%1000:03d}",
           "level": level, "rank": RANK, "pid": os.getpid(), "msg": msg}
    rec.update(kw)
    sys.stdout.write(json.dumps(rec) + "\n")
    sys.stdout.flush()


def write_cache(path, feats):
    with open(path, "wb") as f:
        buf = feats.numpy().tobytes()
        for off in range(0, len(buf), 1 << 16):
            f.write(buf[off:off + (1 << 16)])
        f.flush()


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    jlog("INFO", "process group ready", world_size=world, backend="gloo")
    ds = SyntheticDataset(n=2048, seed=rank)
    model = DDP(TinyMLP())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for epoch in range(3):
        for i in range(0, len(ds), 64):
            x, y = ds.x[i:i + 64], ds.y[i:i + 64]
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            time.sleep(0.05)
            if step % 8 == 0:
                jlog("INFO", "train", epoch=epoch, step=step, loss=round(loss.item(), 4))
        with torch.no_grad():
            feats = model.module.fc1(ds.x)
        path = f"scratch/feat-e{epoch}-r{rank}.bin"
        write_cache(path, feats)
        jlog("INFO", "feature cache written", path=path, bytes=feats.numel() * 4)
    jlog("INFO", "finished", steps=step)


if __name__ == "__main__":
    try:
        main()
    except BaseException as e:
        jlog("ERROR", "uncaught exception", exc_type=type(e).__name__, exc=str(e),
             traceback=traceback.format_exc())
        sys.exit(1)
