# Sequence model that materialises a dense (B, L, L) attention-bias tensor. One
# record in rank 3's shard has a corrupt length field (2_000_000 tokens), so the
# allocation on rank 3 fails with DefaultCPUAllocator "can't allocate memory".
# Python logging with timestamps and rank in every record.
import os, datetime, logging
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

RANK = int(os.environ.get("RANK", "0"))
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s.%(msecs)03d | rank{RANK} | %(levelname)-7s | %(message)s",
                    datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger(__name__)

def batch_lengths(rank, step):
    if rank == 3 and step == 6:
        return [48, 2_000_000, 40, 52]
    return [48, 64, 40, 52]

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 16))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(12):
        lens = batch_lengths(RANK, step)
        L = max(lens)
        bias = torch.zeros(len(lens), L, L)
        x = torch.randn(len(lens), min(L, 64), 16)
        loss = model(x).pow(2).mean() + bias.mean()
        opt.zero_grad(); loss.backward(); opt.step()
        log.info("step %d max_len %d loss %.4f", step, L, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
