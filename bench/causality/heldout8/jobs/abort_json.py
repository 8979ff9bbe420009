# JSON-lines logging, errors logged as one JSON object with the traceback in a field.
# One rank finds a corrupted index buffer and calls os.abort() (SIGABRT, no Python traceback).
import os, sys, time, json, traceback
from datetime import datetime
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
def log(level, msg, **kw):
    sys.stdout.write(json.dumps({"time": datetime.now().strftime("%H:%M:%S.%f")[:-3], "rank": rank,
                                 "level": level, "msg": msg, **kw}) + "\n"); sys.stdout.flush()
try:
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    log("INFO", "joined process group", world_size=world)
    idx = torch.arange(1000)
    for step in range(14):
        if rank == 3 and step == 8:
            idx[17] = -5
        if (idx < 0).any():
            log("CRITICAL", "index buffer corrupted, aborting", step=step, bad=int((idx < 0).sum()))
            os.abort()
        g = torch.randn(100); dist.all_reduce(g)
        log("INFO", "step", step=step, loss=round(1.0 / (step + 1), 4))
        time.sleep(0.1)
    log("INFO", "done")
except Exception as e:
    log("ERROR", "training failed", error=repr(e), traceback=traceback.format_exc())
    sys.exit(1)
