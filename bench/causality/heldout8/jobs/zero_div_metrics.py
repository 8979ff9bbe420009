# Each rank logs to its own file (loguru-like format). One rank's validation split is empty
# after filtering, and the accuracy function divides by zero.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.DEBUG, format="%(asctime)s.%(msecs)03d | %(levelname)-8s | "
                    "%(module)s:%(funcName)s:%(lineno)d - %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger()

def compute_accuracy(preds, labels):
    correct = sum(int(p == l) for p, l in zip(preds, labels))
    return correct / len(labels)

def validate(samples):
    kept = [s for s in samples if s["length"] <= 64]
    log.debug("validation: %d of %d samples kept after length filter", len(kept), len(samples))
    preds = [s["length"] % 3 for s in kept]; labels = [s["label"] for s in kept]
    return compute_accuracy(preds, labels)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    log.info("process group ready, world_size={}".format(world))
    torch.manual_seed(rank)
    val = [{"length": (70 + i) if rank == 3 else (10 + 7 * i) % 90, "label": i % 3} for i in range(8)]
    for epoch in range(3):
        for step in range(6):
            g = torch.randn(50); dist.all_reduce(g)
            time.sleep(0.1)
        log.info("epoch {} train done, grad_norm {:.3f}".format(epoch, g.norm().item()))
        if epoch == 1:
            acc = validate(val)
            t = torch.tensor([acc]); dist.all_reduce(t)
            log.info("epoch {} val acc {:.3f}".format(epoch, t.item() / world))

try:
    main()
except Exception:
    log.exception("An error has been caught in function 'main', process 'MainProcess'")
    raise SystemExit(1)
