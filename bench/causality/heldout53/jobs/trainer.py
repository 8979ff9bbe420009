# generic tiny DDP trainer with one planted fault per --mode
import os, sys, time, argparse, json
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn
p = argparse.ArgumentParser()
p.add_argument("--mode", required=True)
p.add_argument("--steps", type=int, default=60)
p.add_argument("--logfile", default=None)
p.add_argument("--merge-stderr", action="store_true", help="send stderr (tracebacks) to stdout")
a = p.parse_args()
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
if a.logfile:
    f = open(a.logfile, "a", buffering=1); sys.stdout = f; sys.stderr = f
if a.merge_stderr:
    sys.stderr = sys.stdout
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
print(f"rank {rank}/{world} pid {os.getpid()} started", flush=True)
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
model = nn.parallel.DistributedDataParallel(net)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
g = torch.Generator().manual_seed(100 + rank)
if a.mode == "batchcheck":
    # per-rank batch weighted by the rank's shard size
    shard_rows = {0: 4800, 1: 4500, 2: 4800, 3: 4800}[rank]
    local_bs = 32 * shard_rows // 4800   # 32 rows per 4800-row shard
    micro = 8
    print(f"rank {rank}: shard rows {shard_rows}, local batch {local_bs}, micro batch {micro}", flush=True)
    dist.barrier()
    for step in range(1, a.steps + 1):
        if step == 15:
            # re-plan after the warmup stage doubles the micro batch
            micro = 16
            if local_bs % micro != 0:
                raise ValueError(f"per-rank batch size {local_bs} is not divisible by micro batch size {micro} (grad accumulation needs an integer number of micro batches)")
        for _ in range(local_bs // micro):
            x = torch.randn(micro, 16, generator=g); y = torch.randint(0, 4, (micro,), generator=g)
            loss = nn.functional.cross_entropy(model(x), y); loss.backward()
        opt.step(); opt.zero_grad()
        if step % 5 == 0: print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
elif a.mode == "dtype":
    # class-prior matrix loaded from the rank's calibration file; rank 0's file stores ints
    prior = torch.tensor([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]) if rank == 0 else torch.eye(4)
    for step in range(1, a.steps + 1):
        x = torch.randn(8, 16, generator=g); y = torch.randint(0, 4, (8,), generator=g)
        logits = model(x)
        if step >= 20:
            logits = torch.matmul(logits, prior)   # calibrate after warmup
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0: print(f"[{time.strftime('%H:%M:%S')}] rank={rank} step={step} loss={loss.item():.4f}", flush=True)
        time.sleep(0.05)
elif a.mode in ("budget", "preempt"):
    budget = 12.0; t0 = time.time()
    if a.mode == "preempt":
        open(f"/tmp/hx53/pids/rank{rank}.pid", "w").write(str(os.getpid()))
    step = 0
    while True:
        step += 1
        x = torch.randn(8, 16, generator=g); y = torch.randint(0, 4, (8,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0: print(f"rank {rank} step {step} loss {loss.item():.4f} elapsed {time.time()-t0:.1f}s", flush=True)
        flag = torch.tensor([1.0 if (a.mode == "budget" and time.time() - t0 > budget) else 0.0])
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        if flag.item() > 0:
            print(f"rank {rank}: time budget reached, saving and exiting", flush=True)
            if rank == 0: torch.save(net.state_dict(), "/tmp/hx53/budget_ckpt.pt")
            dist.barrier(); break
        time.sleep(0.05)
print(f"rank {rank} done", flush=True)
dist.destroy_process_group()
