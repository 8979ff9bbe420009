import os, sys, json, time, datetime, logging, warnings
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

EXPECTED_SCHEMA = 6
FEATURE_DIR = "/tmp/helper37/features"

class SchemaError(Exception):
    pass

class JsonFormatter(logging.Formatter):
    def format(self, r):
        d = {"ts": self.formatTime(r, "%Y-%m-%dT%H:%M:%S") + ".%03dZ" % r.msecs, "level": r.levelname,
             "logger": r.name, "process": r.processName, "pid": r.process, "msg": r.getMessage()}
        if r.exc_info:
            d["exc"] = self.formatException(r.exc_info)
        return json.dumps(d)

def setup_logging():
    h = logging.StreamHandler(sys.stderr); h.setFormatter(JsonFormatter())
    root = logging.getLogger(); root.handlers[:] = [h]; root.setLevel(logging.INFO)
    logging.captureWarnings(True)

def load_partition(rank):
    path = os.path.join(FEATURE_DIR, f"part-{rank:04d}.json")
    t = json.load(open(path))
    if t["schema_version"] != EXPECTED_SCHEMA:
        raise SchemaError(f"{path}: table {t['table']} has schema_version {t['schema_version']}, "
                          f"trainer expects {EXPECTED_SCHEMA} (columns {t['columns']})")
    rows = torch.tensor(t["rows"])
    return rows[:, :-1], rows[:, -1]

def worker(rank, world):
    setup_logging()
    log = logging.getLogger("churn.train")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29641")
    try:
        dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
        log.info("process group ready rank=%d world=%d", rank, world)
        torch.manual_seed(0)
        model = DDP(nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1)))
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        warnings.warn("positive class weight not set, using 1.0", UserWarning)
        # a few steps on the cached partition from the last run, then switch to the fresh export
        x, y = torch.rand(512, 6), torch.randint(0, 2, (512,)).float()
        for step in range(1, 21):
            if step == 6:
                x, y = load_partition(rank)
                log.info("loaded fresh partition: %d rows", len(x))
            i = (step * 64) % len(x)
            loss = nn.functional.binary_cross_entropy_with_logits(model(x[i:i+64]).squeeze(1), y[i:i+64])
            opt.zero_grad(); loss.backward(); opt.step()
            log.info("step=%d loss=%.4f", step, loss.item())
            time.sleep(0.1)
        dist.destroy_process_group()
    except Exception:
        log.exception("worker failed")
        raise

if __name__ == "__main__":
    setup_logging()
    logging.getLogger("churn.launch").info("spawning 4 workers")
    mp.spawn(worker, args=(4,), nprocs=4, join=True)
