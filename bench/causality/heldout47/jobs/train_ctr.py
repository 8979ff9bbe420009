# Tiny two-tower click model, DDP over gloo. Used by the "multi-node" launches of set 47.
import os, sys, time, zlib, json, struct
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

RANK = int(os.environ["RANK"]); WORLD = int(os.environ["WORLD_SIZE"])
LOCAL = int(os.environ.get("LOCAL_RANK", RANK % 2))
HOST = os.environ.get("FAKE_HOST", "localhost")
STEPS = int(os.environ.get("STEPS", "60"))
DATA = os.environ.get("DATA_DIR", "")
PLAN = os.environ.get("RUNTIME_PLAN", "")  # e.g. "3:kill:14" (rank:action:step), set by run.sh


def log(msg):
    print(f"[{HOST} r{RANK}/{WORLD} l{LOCAL}] {msg}", flush=True)


def planned(action):
    for item in PLAN.split(","):
        if item:
            r, a, s = item.split(":")
            if int(r) == RANK and a == action:
                return int(s)
    return None


def read_block(path):
    with open(path, "rb") as f:
        hdr = f.read(8)
        n, clen = struct.unpack("<II", hdr)
        raw = zlib.decompress(f.read(clen))
    return torch.frombuffer(bytearray(raw), dtype=torch.float32).view(n, 17)


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))
        self.item = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))

    def forward(self, x):
        return (self.user(x[:, :8]) * self.item(x[:, 8:16])).sum(-1)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", timeout=timedelta(seconds=int(os.environ.get("PG_TIMEOUT", "25"))))
    log(f"joined process group (backend gloo, pid {os.getpid()})")
    model = DDP(Tower())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    lossf = nn.BCEWithLogitsLoss()
    kill_at, hang_at = planned("kill"), planned("hang")
    g = torch.Generator().manual_seed(100 + RANK)
    blocks = sorted(os.listdir(DATA)) if DATA else []
    for step in range(1, STEPS + 1):
        if blocks and step % 10 == 1:
            name = blocks[(step // 10 * WORLD + RANK) % len(blocks)]
            data = read_block(os.path.join(DATA, name))
            log(f"step {step}: loaded feature block {name} ({data.shape[0]} rows)")
        elif not blocks:
            data = torch.cat([torch.randn(64, 16, generator=g), torch.randint(0, 2, (64, 1), generator=g).float()], 1)
        idx = torch.randint(0, data.shape[0], (32,), generator=g)
        x, y = data[idx, :16], data[idx, 16]
        if kill_at is not None and step == kill_at:
            os.kill(os.getpid(), 9)
        if hang_at is not None and step == hang_at:
            time.sleep(600)
        loss = lossf(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log(f"step {step}/{STEPS} loss {loss.item():.4f}")
        time.sleep(0.15)
    dist.barrier()
    log("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
