# A corrupt sample makes the Dataset raise inside a DataLoader worker process on one rank.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])

class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = rank
        return True

h = logging.StreamHandler()
h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s - rank%(rank)d - %(levelname)s - %(message)s"))
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger(__name__)

class Tokens(Dataset):
    def __len__(self): return 64
    def __getitem__(self, i):
        if rank == 1 and i == 37:
            raise ValueError(f"sample {i}: expected 128 tokens, got 0 (truncated record)")
        return torch.randint(0, 1000, (128,))

if __name__ == "__main__":
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    log.info("loading dataset, %d samples", 64)
    dl = DataLoader(Tokens(), batch_size=4, num_workers=2)
    emb = torch.nn.Embedding(1000, 8)
    for step, batch in enumerate(dl):
        loss = emb(batch).pow(2).mean()
        loss.backward()
        dist.all_reduce(emb.weight.grad)
        emb.weight.grad = None
        log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)
    log.info("epoch finished")
