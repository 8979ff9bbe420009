# 5005: two fake "nodes" (two torchrun agents, --nnodes 2, static rendezvous on 127.0.0.1), 2 ranks each.
# The job's log formatter prints ISO-8601 time from time.time() + CLOCK_SKEW_S (env): node 1 runs with
# CLOCK_SKEW_S=+8.0 to stand in for a node whose clock is 8 s fast (no faketime on this machine).
import logging, os, sys, time
from datetime import datetime, timedelta, timezone
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

SKEW = float(os.environ.get("CLOCK_SKEW_S", "0"))
class IsoFormatter(logging.Formatter):
    def formatTime(self, record, datefmt=None):
        return datetime.fromtimestamp(record.created + SKEW, timezone.utc).isoformat(timespec="milliseconds")
rank = int(os.environ["RANK"]); node = int(os.environ["GROUP_RANK"])
h = logging.StreamHandler(sys.stderr)
h.setFormatter(IsoFormatter("%(asctime)s node" + str(node) + " rank" + str(rank) + " %(levelname)s %(message)s"))
log = logging.getLogger("seg"); log.setLevel(logging.INFO); log.addHandler(h)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    log.info("initialized, world_size=%d local_rank=%s", dist.get_world_size(), os.environ["LOCAL_RANK"])
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    # per-rank input projection from the rank's feature spec (rank 3's spec lists 18 features)
    n_feat = 18 if rank == 3 and os.environ.get("FAULT", "rank3") == "rank3" else 16
    proj = torch.eye(16)
    for step in range(1, int(os.environ.get("STEPS", "30")) + 1):
        x = torch.randn(8, n_feat if step >= 12 else 16)   # new feature set switches on at step 12
        x = x @ proj
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.2)
    dist.barrier()
    log.info("training complete")

if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("uncaught exception, exiting")
        sys.exit(1)
