"""Small regression MLP launched with torch.multiprocessing.spawn, tcp:// init.
Planted fault: rank 3 builds its rendezvous address from a stale port (port + 1), so it
cannot reach the store; ranks 0-2 time out waiting for the fourth member."""
import datetime, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

def setup_logging(rank):
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, force=True,
                        format=f"%(asctime)s - %(levelname)s - rank{rank} - %(name)s - %(message)s")
    return logging.getLogger("regress")

def worker(rank, world, port):
    log = setup_logging(rank)
    torch.set_num_threads(1)
    rdzv_port = port + 1 if rank == 3 else port  # planted: stale port on rank 3
    url = f"tcp://127.0.0.1:{rdzv_port}"
    log.info("init_process_group(backend=gloo, init_method=%s, world_size=%d)", url, world)
    try:
        dist.init_process_group("gloo", init_method=url, rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=25))
        log.info("joined process group")
        model = DDP(nn.Sequential(nn.Linear(12, 64), nn.Tanh(), nn.Linear(64, 1)))
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for step in range(1, 21):
            x = torch.randn(64, 12); y = x[:, :3].sum(1, keepdim=True)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 5 == 0:
                log.info("step %d mse %.4f", step, loss.item())
        dist.destroy_process_group()
    except Exception:
        log.exception("worker failed")
        raise

if __name__ == "__main__":
    port = int(os.environ.get("PORT", "29611"))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(levelname)s - main - %(message)s")
    logging.info("spawning 4 workers, rendezvous tcp://127.0.0.1:%d", port)
    mp.spawn(worker, args=(4, port), nprocs=4, join=True)
