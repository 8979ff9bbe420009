# A cluster "preemption check" helper calls os._exit(3) when it sees a maintenance marker; it
# prints nothing. Only rank 1's node has the marker (run.sh creates it). No traceback anywhere
# from rank 1; the others fail with Connection closed.
import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = rank; return True
h = logging.StreamHandler(sys.stdout); h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s rank=%(rank)s %(levelname)s %(message)s"))
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger(__name__)
marker = os.environ.get("MAINT_MARKER_DIR", "/tmp") + f"/node{rank}.maintenance"

def check_preemption():
    if os.path.exists(marker):
        os._exit(3)

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
log.info("joined group, world_size=%d", world)
for step in range(40):
    g = torch.randn(256); dist.all_reduce(g)
    if step % 5 == 0:
        log.info("step %d grad_norm %.3f", step, g.norm().item())
    if step == 12:
        check_preemption()
    time.sleep(0.08)
log.info("done")
