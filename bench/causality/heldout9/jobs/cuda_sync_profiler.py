# 2 ranks on a CPU box. A timing helper on rank 0 (profiling enabled only for the logging rank)
# calls torch.cuda.synchronize(): AssertionError "Torch not compiled with CUDA enabled".
# Rank 1 fails with Connection closed. Each rank writes its own log file.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
profile = rank == 0

class Timer:
    def __enter__(self):
        if profile: torch.cuda.synchronize()
        self.t = time.perf_counter(); return self
    def __exit__(self, *a):
        if profile: torch.cuda.synchronize()
        self.dt = time.perf_counter() - self.t

model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(32, 8))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
print(f"rank {rank}: model ready, profiling={'on' if profile else 'off'}", flush=True)
for step in range(20):
    x = torch.randn(16, 32)
    loss = model(x).square().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"step {step} loss {loss.item():.4f}", flush=True)
    if step == 5:
        with Timer() as t:
            model(x).sum()
        print(f"fwd time {t.dt * 1000:.2f} ms", flush=True)
    time.sleep(0.1)
