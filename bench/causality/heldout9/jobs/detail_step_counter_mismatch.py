# TORCH_DISTRIBUTED_DEBUG=DETAIL (set by run.sh). Manual gradient all_reduce each step plus a
# metrics all_gather every 5 steps. On rank 1 a skipped (empty) batch still increments `step`
# twice (once in the except path, once at the loop end), so rank 1 reaches the metrics
# all_gather one step early while the others are in the gradient all_reduce.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=8))
w = torch.zeros(32, requires_grad=True)
step = 0
for it in range(20):
    try:
        n = 0 if (rank == 1 and it == 2) else 16
        if n == 0:
            raise ValueError("empty batch")
        x = torch.randn(n, 32)
        loss = (x @ w - 1).pow(2).mean(); loss.backward()
        dist.all_reduce(w.grad)
        with torch.no_grad():
            w -= 0.01 * w.grad; w.grad.zero_()
    except ValueError:
        print(f"skipping empty batch at iteration {it}", flush=True)
        step += 1
    step += 1
    if step % 5 == 0:
        m = torch.tensor([loss.item(), float(step)])
        out = [torch.zeros(2) for _ in range(world)]
        dist.all_gather(out, m)
        print(f"step {step}: mean loss {sum(o[0] for o in out).item() / world:.4f}", flush=True)
    time.sleep(0.05)
