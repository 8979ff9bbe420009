# Early stopping decided on each rank's *local* validation loss: one rank decides to stop, calls
# destroy_process_group and exits 0; the others go on to the next epoch's collectives.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
def say(msg):
    print("rank %d/%d: %s" % (rank, world, msg), flush=True)

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
best, patience, bad = float("inf"), 1, 0
for epoch in range(6):
    for step in range(5):
        g = torch.randn(40); dist.all_reduce(g); time.sleep(0.08)
    local_val = [0.9, 0.7, 0.72, 0.74, 0.6, 0.5][epoch] + (0.0 if rank == 0 else -0.1 * epoch)
    say("epoch %d val_loss %.3f" % (epoch, local_val))
    if local_val < best:
        best, bad = local_val, 0
    else:
        bad += 1
        if bad > patience:
            say("early stopping: no improvement for %d epochs, shutting down" % bad)
            dist.destroy_process_group()
            sys.exit(0)
say("training finished")
