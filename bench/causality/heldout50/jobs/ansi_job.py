# 5002/5006: coloured console logging (ANSI escapes per level), 3 ranks under torchrun, captured by script(1).
import logging, os, sys, time, warnings
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

COLOURS = {"DEBUG": "\033[36m", "INFO": "\033[32m", "WARNING": "\033[33m", "ERROR": "\033[31m", "CRITICAL": "\033[1;31m"}
class ColourFormatter(logging.Formatter):
    def format(self, record):
        s = super().format(record)
        return COLOURS.get(record.levelname, "") + s + "\033[0m"
rank = int(os.environ["RANK"])
h = logging.StreamHandler(sys.stdout)
h.setFormatter(ColourFormatter("\033[1m%(asctime)s\033[22m | %(levelname)-8s | rank %(rank)s | %(message)s", "%H:%M:%S"))
old = logging.getLogRecordFactory()
def factory(*a, **k):
    r = old(*a, **k); r.rank = rank; return r
logging.setLogRecordFactory(factory)
log = logging.getLogger("train"); log.setLevel(logging.INFO); log.addHandler(h)
FAULT = os.environ.get("FAULT", "none")

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    torch.manual_seed(rank)
    net = torch.nn.Sequential(torch.nn.Linear(12, 24), torch.nn.ReLU(), torch.nn.Linear(24, 3))
    model = DDP(net)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    log.info("model has %d parameters", sum(p.numel() for p in net.parameters()))
    if rank == 1:
        log.warning("class weights file not found, using uniform weights")
    labels_seen = {0: 0, 1: 0, 2: 0}
    for step in range(1, 31):
        x = torch.randn(16, 12); y = torch.randint(0, 3, (16,))
        if FAULT == "rank1" and rank == 1 and step == 18:
            y[5] = 3   # a label id the per-class counter has never seen
        for c in y.tolist():
            labels_seen[c] += 1
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d/30 loss %.4f", step, loss.item())
        if step == 10 and rank == 2:
            log.warning("step time 0.21s is above the 0.2s budget")
        time.sleep(0.15)
    dist.barrier()
    log.info("done; label counts %s", labels_seen)
    dist.destroy_process_group()

if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training step failed")
        sys.exit(1)
