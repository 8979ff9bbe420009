# 4203: same supervisor; at step 25 rank 1 (owner of the sampler state) broadcasts its state, which holds a threading.Lock -> pickling fails
import os, sys, time, datetime
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from multiprocessing.connection import wait

WORLD = 3

class SoftClip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound):
        ctx.save_for_backward(x)
        ctx.bound = bound
        return x.clamp(-bound, bound)
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        frac = (x.abs() > ctx.bound).float().mean().item()
        if frac > 0.5:
            raise FloatingPointError(f"SoftClip.backward: {frac:.2%} of activations saturated (bound={ctx.bound}); gradient would vanish")
        return g * (x.abs() <= ctx.bound).float(), None

def worker(rank):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29803")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=datetime.timedelta(seconds=25))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(16, 32), nn.Linear(32, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(100 + rank)
    for step in range(1, 61):
        x = torch.randn(32, 16, generator=g)
        # rank 2's sensor channel drifts upwards after step 20
        if False:
            x = x * (1.0 + 0.8 * (step - 20))
        h = model.module[0](x)
        h = SoftClip.apply(h, 3.0)
        out = model.module[1](h)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        # manual gradient averaging (DDP wrapper used only for broadcast of init weights)
        for p in model.parameters():
            dist.all_reduce(p.grad)
            p.grad /= WORLD
        opt.step()
        if step == 25:
            import threading
            state = [{"epoch": 0, "cursor": step * 32, "lock": threading.Lock()} if rank == 1 else None]
            dist.broadcast_object_list(state, src=1)
            print(f"[spawn:{rank}] sampler state synced: cursor={state[0]['cursor']}", flush=True)
        if step % 10 == 0:
            print(f"[spawn:{rank}] step {step:3d} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    print(f"[spawn:{rank}] done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    ctx = mp.spawn(worker, nprocs=WORLD, join=False)
    procs = ctx.processes
    print(f"supervisor: started {len(procs)} workers pids={[p.pid for p in procs]}", flush=True)
    alive = {p.sentinel: i for i, p in enumerate(procs)}
    failed = False
    while alive:
        ready = wait(list(alive), timeout=5)
        for s in ready:
            i = alive.pop(s)
            p = procs[i]
            p.join()
            print(f"supervisor: worker {i} (pid {p.pid}) exited with code {p.exitcode}", flush=True)
            q = ctx.error_queues[i]
            if not q.empty():
                print(f"supervisor: worker {i} reported:\n{q.get()}", flush=True)
            if p.exitcode != 0 and not failed:
                failed = True
                print("supervisor: a worker failed; terminating the remaining workers", flush=True)
                for j in alive.values():
                    if procs[j].is_alive():
                        procs[j].terminate()
    codes = [p.exitcode for p in procs]
    print(f"supervisor: exit codes {codes}", flush=True)
    sys.exit(1 if failed else 0)
