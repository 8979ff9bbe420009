# One rank trips an assert in user code during evaluation while the others wait at a barrier.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
batch_size = 16
print(f"eval start world_size={world}", flush=True)

def evaluate(n):
    outs = []
    for i in range(n):
        bs = batch_size if not (rank == 3 and i == 3) else batch_size - 5  # ragged last shard
        out = torch.randn(bs, 10)
        assert out.shape[0] == batch_size, f"unexpected eval batch shape {tuple(out.shape)}"
        outs.append(out.argmax(1))
        time.sleep(0.2)
    return torch.cat(outs)

for epoch in range(2):
    for step in range(5):
        g = torch.randn(100); dist.all_reduce(g)
        print(f"epoch {epoch} step {step} grad_norm {g.norm().item():.3f}", flush=True)
        time.sleep(0.1)
    preds = evaluate(4 if epoch == 1 else 2)
    dist.barrier()
    acc = torch.tensor([preds.float().mean().item()]); dist.all_reduce(acc)
    print(f"epoch {epoch} eval acc {acc.item()/world:.3f}", flush=True)
