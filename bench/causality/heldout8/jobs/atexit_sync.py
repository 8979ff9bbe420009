# The job does its end-of-run work in an atexit handler: upload this rank's metrics part, then a
# final barrier. One rank's metrics part was never written, so its handler raises before the
# barrier; the others' barrier then fails inside their own handlers. Python reports exceptions in
# atexit callbacks as "Exception ignored" and every process exits 0.
import os, atexit, shutil, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
root = os.environ.get("METRICS_DIR", "metrics")
def say(msg): print("rank %d/%d: %s" % (rank, world, msg), flush=True)

def on_exit():
    part = os.path.join(root, f"part-{rank:05d}.json")
    shutil.copy(part, os.path.join(root, "upload", os.path.basename(part)))
    say("metrics uploaded")
    dist.barrier()
    dist.destroy_process_group()
    say("clean shutdown")

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
os.makedirs(os.path.join(root, "upload"), exist_ok=True)
atexit.register(on_exit)
for step in range(10):
    g = torch.randn(32); dist.all_reduce(g); time.sleep(0.1)
if rank != 1:      # rank 1's metrics writer thread died silently earlier (never flushed)
    with open(os.path.join(root, f"part-{rank:05d}.json"), "w") as f:
        f.write('{"loss": %.4f}\n' % (g.norm().item() / 100))
say("training loop finished")
