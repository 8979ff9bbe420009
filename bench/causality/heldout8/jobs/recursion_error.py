# The job starts its own worker processes with multiprocessing.Process and reports their exit
# codes. One rank resolves a config whose 'defaults' include each other and recurses forever.
import os, sys, time, socket
from datetime import timedelta
import multiprocessing as mp

WORLD = 4

def resolve(cfg, name):
    node = dict(cfg[name])
    for parent in node.pop("defaults", []):
        base = resolve(cfg, parent)
        base.update(node); node = base
    return node

def worker(rank, port):
    import torch, torch.distributed as dist
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=WORLD, timeout=timedelta(seconds=15))
    cfg = {"base": {"lr": 0.1}, "small": {"defaults": ["base"], "dim": 32},
           "aug": {"defaults": ["small"], "flip": True}}
    if rank == 2:
        # this rank's override file (experiment/aug_v2.yaml) points back at 'aug'
        cfg["small"]["defaults"] = ["aug"]
    for step in range(10):
        g = torch.randn(30); dist.all_reduce(g)
        print(f"[worker {rank}] step {step}", flush=True)
        time.sleep(0.1)
        if step == 5:
            c = resolve(cfg, "aug")
            print(f"[worker {rank}] resolved augmentation config: {sorted(c)}", flush=True)

if __name__ == "__main__":
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=worker, args=(r, port)) for r in range(WORLD)]
    for p in procs: p.start()
    for r, p in enumerate(procs):
        p.join()
        print(f"worker {r} exited with exitcode {p.exitcode}", flush=True)
    sys.exit(max(p.exitcode != 0 for p in procs))
