# MoE checkpoint: rank 0 creates ckpt/step_N/ and its dense/ subdir, then a barrier, then every rank
# saves its optimizer shard into dense/. Only rank 3 holds expert parameters in this config
# (experts placed on the last rank) and it also saves into experts/, which nobody created:
# torch.save raises "Parent directory ... does not exist". Peers: Connection closed at barrier.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
out = os.environ["CKPT_ROOT"]
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
has_experts = rank == world - 1
dense = torch.nn.Linear(64, 64)
experts = torch.nn.ModuleList([torch.nn.Linear(64, 64) for _ in range(4)]) if has_experts else None
print(f"[{rank}] dense params {sum(p.numel() for p in dense.parameters())}, "
      f"expert params {sum(p.numel() for p in experts.parameters()) if experts else 0}", flush=True)
for step in range(1, 31):
    g = torch.randn(512); dist.all_reduce(g)
    if step % 10 == 0:
        print(f"[{rank}] step {step} loss {1.0 / step:.4f}", flush=True)
    if step % 15 == 0:
        d = os.path.join(out, f"step_{step}")
        if rank == 0:
            os.makedirs(os.path.join(d, "dense"), exist_ok=True)
        dist.barrier()
        torch.save(dense.state_dict(), os.path.join(d, "dense", f"optim_rank{rank}.pt"))
        if has_experts:
            torch.save(experts.state_dict(), os.path.join(d, "experts", f"experts_rank{rank}.pt"))
        dist.barrier()
        print(f"[{rank}] saved checkpoint step_{step}", flush=True)
    time.sleep(0.05)
