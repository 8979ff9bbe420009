# LR range test before training. Each rank searches for a learning rate by bisection
# until the loss change is below a tolerance; on rank 3 the tolerance is compared
# against a NaN (its probe batch gives a NaN loss), so the while loop never ends.
# Ranks 0-2 go on to the all_reduce of the found LR and hit the gloo timeout (20 s).
import os, datetime, math
import torch, torch.distributed as dist

def probe_loss(lr, rank):
    if rank == 3:
        return float("nan")
    return (math.log10(lr) + 3.0) ** 2

def find_lr(rank):
    lo, hi, it = 1e-6, 1.0, 0
    while True:
        mid = math.sqrt(lo * hi)
        d = probe_loss(mid * 1.01, rank) - probe_loss(mid, rank)
        if abs(d) < 1e-9 or (hi / lo) < 1.0000001:
            return mid
        if d > 0: hi = mid
        else: lo = mid
        if not (d == d):     # NaN: "retry the probe with a fresh batch"
            lo, hi = 1e-6, 1.0
        it += 1

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank()
    print(f"rank {rank}: running LR range test", flush=True)
    lr = find_lr(rank)
    print(f"rank {rank}: local lr {lr:.2e}", flush=True)
    t = torch.tensor([lr])
    dist.all_reduce(t)
    lr = t.item() / dist.get_world_size()
    print(f"rank {rank}: using lr {lr:.2e}", flush=True)
    model = torch.nn.Linear(16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for step in range(20):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
