# A DataLoader worker on one rank is killed (SIGKILL, as the kernel OOM killer would).
import os, time, signal, logging
from datetime import timedelta
import torch, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s | %(levelname)s | [RANK {rank}] %(message)s")
log = logging.getLogger("train")

class Images(Dataset):
    def __len__(self): return 96
    def __getitem__(self, i):
        if rank == 0 and i == 45:
            os.kill(os.getpid(), signal.SIGKILL)   # worker blown up by a huge decode
        time.sleep(0.01)
        return torch.randn(3, 8, 8)

if __name__ == "__main__":
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    try:
        dl = DataLoader(Images(), batch_size=4, num_workers=2)
        conv = torch.nn.Conv2d(3, 4, 3)
        for step, x in enumerate(dl):
            loss = conv(x).mean(); loss.backward()
            dist.all_reduce(conv.weight.grad); conv.weight.grad = None
            log.info("iter %d loss %.5f", step, loss.item())
            time.sleep(0.1)
        log.info("epoch done")
    except Exception:
        log.exception("training loop crashed")
        raise
