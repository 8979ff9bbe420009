# 4801: torch.multiprocessing.spawn, each rank logs to logs/rank{N}.txt (logging.FileHandler)
import os, sys, ctypes, logging, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD = 4
CACHE_HEADERS = {0: 4096, 1: 4096, 2: 0, 3: 4096}   # rank 2's cache header was never filled in (offset table zeroed)

def setup_logging(rank):
    os.makedirs("logs", exist_ok=True)
    log = logging.getLogger("trainer")
    log.setLevel(logging.INFO)
    fh = logging.FileHandler(f"logs/rank{rank}.txt")
    fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
    log.addHandler(fh)
    return log

class PackedEmbeddingCache:
    """zero-copy view of precomputed embeddings; the header gives the base address of the mmap'd block"""
    def __init__(self, rank):
        self.buf = ctypes.create_string_buffer(64 * 1024)
        self.base = ctypes.addressof(self.buf) if CACHE_HEADERS[rank] else CACHE_HEADERS[rank]
    def fetch(self, idx, nbytes=256):
        return ctypes.string_at(self.base + idx * nbytes, nbytes)

def worker(rank):
    log = setup_logging(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="30051")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=timedelta(seconds=25))
    log.info("process group up: rank %d/%d pid %d", rank, WORLD, os.getpid())
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 8)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    cache = PackedEmbeddingCache(rank)
    log.info("embedding cache opened (base=0x%x)", cache.base)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 61):
        x = torch.randn(32, 64, generator=g)
        y = torch.randint(0, 8, (32,), generator=g)
        if step == 23:
            log.info("step %d: refreshing hard negatives from embedding cache", step)
            blob = cache.fetch(step % 16)
            x[:, :4] += float(len(blob)) * 0
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.05)
    log.info("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"launching {WORLD} workers with torch.multiprocessing.spawn", flush=True)
    mp.spawn(worker, nprocs=WORLD, join=True)
