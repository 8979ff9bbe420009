# A data-loading watchdog with signal.alarm; one rank's data fetch stalls (slow network filesystem)
# and its own alarm raises TimeoutError before the gloo timeout.
import os, time, signal
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
def say(msg): print("rank %d/%d %s" % (rank, world, msg), flush=True)
def on_alarm(signum, frame):
    raise TimeoutError("data watchdog: fetching the batch took longer than 3 s")
signal.signal(signal.SIGALRM, on_alarm)

def fetch_batch(step):
    if rank == 2 and step == 6:
        time.sleep(8)              # stalled read from the shared filesystem
    return torch.randn(16, 10)

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
w = torch.zeros(10, requires_grad=True)
for step in range(12):
    signal.alarm(3)                # data-loading watchdog
    x = fetch_batch(step)
    signal.alarm(0)
    loss = (x @ w - 1).pow(2).mean(); loss.backward()
    dist.all_reduce(w.grad)
    with torch.no_grad():
        w -= 0.01 * w.grad; w.grad.zero_()
    say("step %d loss %.4f" % (step, loss.item()))
    time.sleep(0.1)
say("done")
