# Each rank writes JSON lines to its own file (logs/rank_R.jsonl). One rank fails first writing its
# feature cache (ENOSPC: the cache path is /dev/full here); another rank, busy with local work and
# no collectives, fails seconds later with its own KeyError. The other two are in the barrier.
import os, sys, time, json, traceback
from datetime import datetime, timezone, timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logf = open(os.path.join(os.environ.get("LOG_DIR", "."), f"rank_{rank}.jsonl"), "a", buffering=1)
def log(level, msg, **kw):
    logf.write(json.dumps({"ts": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                           "rank": rank, "level": level, "msg": msg, **kw}) + "\n")

def build_cache():
    feats = torch.randn(256, 64)
    time.sleep(0.8 + 0.2 * rank)
    path = "/dev/full" if rank == 3 else os.devnull   # rank 3's cache volume is full
    with open(path, "wb") as f:
        f.write(feats.numpy().tobytes())
        f.flush()
    log("INFO", "feature cache written", path=path)

def build_label_map():
    labels = ["cat", "dog", "bird"]
    m = {}
    for i in range(40):
        time.sleep(0.1)
        m[labels[i % 3]] = i
    return m["horse"] if rank == 1 else m["cat"]   # rank 1's split has an extra class

try:
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    log("INFO", "process group initialized", world_size=world)
    build_cache()
    if rank == 1:
        log("INFO", "building label map")
        build_label_map()
    dist.barrier()
    log("INFO", "all ranks ready")
except Exception as e:
    log("ERROR", f"{type(e).__name__}: {e}", traceback=traceback.format_exc())
    sys.exit(1)
