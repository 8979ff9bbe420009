# torch.multiprocessing.spawn job resuming from a checkpoint; rank 0 loads it and broadcasts the weights.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp

CKPT = os.environ.get("CKPT", "/tmp/denpex-heldout7/resume/last.pt")

def worker(rank, world, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=15))
    model = nn.Linear(32, 32)
    print(f"[{rank}/{world}] model ready, resume={CKPT}", flush=True)
    if rank == 0:
        state = torch.load(CKPT, map_location="cpu")
        model.load_state_dict(state["model"])
        print(f"[{rank}/{world}] resumed from step {state['step']}", flush=True)
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    for step in range(5):
        loss = model(torch.randn(4, 32)).pow(2).mean()
        loss.backward()
        print(f"[{rank}/{world}] step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.1)

if __name__ == "__main__":
    d = os.path.dirname(CKPT); os.makedirs(d, exist_ok=True)
    # a previous run was killed while writing the checkpoint: keep only the first 3000 bytes
    torch.save({"model": nn.Linear(32, 32).state_dict(), "step": 1200}, CKPT)
    with open(CKPT, "rb") as f:
        head = f.read(3000)
    with open(CKPT, "wb") as f:
        f.write(head)
    port = int(os.environ.get("MASTER_PORT", "29513"))
    mp.spawn(worker, args=(3, port), nprocs=3, join=True)
