# One rank deadlocks on a non-reentrant threading.Lock (the checkpoint callback takes the lock and
# calls a helper that takes it again); the others wait in all_reduce until gloo's timeout. Every
# rank arms faulthandler's hang watchdog, which dumps the stuck rank's stacks and exits it.
import os, sys, time, threading, faulthandler
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
faulthandler.dump_traceback_later(22, exit=True)
state_lock = threading.Lock()
state = {"step": 0}

def snapshot():
    with state_lock:
        return dict(state)

def on_checkpoint(step):
    with state_lock:
        state["step"] = step
        if rank == 0:
            # rank 0 also writes the manifest, which calls snapshot() under the same lock
            meta = snapshot()
            print("manifest", meta, flush=True)

dist.init_process_group("gloo", timeout=timedelta(seconds=10))
print(f"rank {rank} ready", flush=True)
for step in range(20):
    g = torch.randn(64); dist.all_reduce(g)
    if step % 4 == 0:
        print(f"step {step} grad_norm {g.norm().item():.3f}", flush=True)
    if step == 9:
        on_checkpoint(step)
        print("checkpoint callback done", flush=True)
    time.sleep(0.1)
faulthandler.cancel_dump_traceback_later()
print("done", flush=True)
