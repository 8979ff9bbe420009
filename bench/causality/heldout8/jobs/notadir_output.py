# Only rank 0 creates the output tree; a file left by an earlier run has the name of the run
# directory, so makedirs raises NotADirectoryError. The others wait at the barrier.
# Run without -u: stdout is block-buffered, stderr is not.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
out = os.environ.get("OUT_ROOT", "outputs")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
print(f"rank {rank}: starting, output root {out}")
for step in range(6):
    g = torch.randn(30); dist.all_reduce(g); time.sleep(0.1)
    print(f"rank {rank}: warmup step {step}")
if rank == 0:
    run_dir = os.path.join(out, "exp-lr3e-4")
    os.makedirs(os.path.join(run_dir, "checkpoints"), exist_ok=True)
    print(f"created {run_dir}")
dist.barrier()
torch.save({"step": 6}, os.path.join(out, "exp-lr3e-4", "checkpoints", f"part{rank}.pt"))
print(f"rank {rank}: saved")
