import os, sys, time, datetime, resource
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def apply_site_limits(rank):
    # scratch quota per worker slot (from the cluster's slot table)
    slot_quota_kb = {0: None, 1: None, 2: None, 3: 512}
    q = slot_quota_kb[rank]
    if q is not None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (q * 1024, q * 1024))

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    apply_site_limits(rank)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(64, 512), nn.GELU(), nn.Linear(512, 512), nn.GELU(), nn.Linear(512, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    ckdir = os.environ.get("CKPT_DIR", "/tmp/helper37/ckpt")
    os.makedirs(ckdir, exist_ok=True)
    t0 = time.time()
    for step in range(1, 25):
        x = torch.randn(32, 64, generator=g); y = x[:, :4].sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 or step % 4 == 0:
            print(f"rank={rank} step={step} loss={loss.item():.5f} elapsed={time.time()-t0:.2f}s", flush=True)
        if step % 10 == 0:
            path = os.path.join(ckdir, f"optim-shard-{rank}-step{step}.pt")
            torch.save({"step": step, "optim": opt.state_dict()}, path)
            print(f"rank={rank} saved {path} ({os.path.getsize(path)//1024} KiB)", flush=True)
        time.sleep(0.1)
    dist.barrier()
    if rank == 0:
        print("done", flush=True)

if __name__ == "__main__":
    main()
