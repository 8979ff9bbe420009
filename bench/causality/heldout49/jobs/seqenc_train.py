# 4905: torch.multiprocessing.spawn (4), python logging with timestamps.
# The encoder zeroes padded positions in place after a sigmoid gate when a batch holds padding.
# Only rank 2's shard has variable-length (padded) sequences, so only rank 2 takes that path and
# backward fails: "one of the variables needed for gradient computation has been modified by an
# inplace operation". Peers die as collateral in DDP's all_reduce.
import os, logging, torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP

class GatedEnc(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(12, 12); self.out = nn.Linear(12, 3)
    def forward(self, x, mask):
        h = torch.sigmoid(self.proj(x))
        if not bool(mask.all()):
            h[~mask] = 0.0          # in-place on sigmoid output (saved for its backward)
        return self.out(h.mean(1))

def worker(rank, world):
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s %(levelname)-7s [worker{rank}] %(message)s")
    log = logging.getLogger("seqenc")
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="30205")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(GatedEnc())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(rank)
    variable_len = (rank == 2)
    log.info("shard seq-%02d loaded, variable_length=%s", rank, variable_len)
    for step in range(1, 31):
        x = torch.randn(8, 10, 12, generator=g); y = torch.randint(0, 3, (8,), generator=g)
        mask = torch.ones(8, 10, dtype=torch.bool)
        if variable_len and step >= 14:
            lens = torch.randint(4, 11, (8,), generator=g)
            mask = torch.arange(10)[None, :] < lens[:, None]
        loss = nn.functional.cross_entropy(model(x, mask), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    dist.barrier()
    log.info("done")

if __name__ == "__main__":
    os.environ["OMP_NUM_THREADS"] = "1"
    mp.spawn(worker, args=(4,), nprocs=4)
