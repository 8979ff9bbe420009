# glog-style logging (absl-like "I1203 13:45:52.123456 pid file:line] msg"). Rank 3's loss
# diverges (a bad lr multiplier in its param group) and the metrics code does math.exp(loss) for
# perplexity: OverflowError: math range error. Others fail with Connection closed.
import math, os, sys, time, datetime
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
def glog(level, msg, line):
    now = datetime.datetime.now()
    sys.stderr.write(f"{level}{now:%m%d %H:%M:%S}.{now.microsecond:06d} {os.getpid():>7d} trainer.py:{line}] {msg}\n")
    sys.stderr.flush()

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
glog("I", f"Initialized process group: rank {rank} of {world}", 18)
loss = 3.2
lr_mult = 40.0 if rank == 3 else 1.0
for step in range(1, 30):
    g = torch.randn(256); dist.all_reduce(g)
    loss = loss * (0.97 if lr_mult == 1.0 else 1.0) + (0 if lr_mult == 1.0 else 0.5 * step * step)
    if step % 4 == 0:
        ppl = math.exp(loss)
        glog("I", f"step {step} loss {loss:.3f} ppl {ppl:.2f}", 27)
    if loss > 50 and step % 4 == 1:
        glog("W", f"loss {loss:.1f} is unusually high", 29)
    time.sleep(0.1)
glog("I", "training done", 32)
