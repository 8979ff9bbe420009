import os, sys, time, ctypes, datetime, torch, torch.distributed as dist
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
r = dist.get_rank(); mode = os.environ.get("MODE", "ok"); bad = int(os.environ.get("BAD", "-1"))
t = torch.ones(4)
for step in range(0, 60, 10):
    if r == bad and step == 30:
        if mode == "exit3": os._exit(3)
        if mode == "segv": ctypes.string_at(0)
    dist.all_reduce(t)
    print(f"rank {r} step {step} loss {2.5 - step/100:.2f}", flush=True)
    time.sleep(0.2)
dist.barrier()
print(f"rank {r} done", flush=True)
