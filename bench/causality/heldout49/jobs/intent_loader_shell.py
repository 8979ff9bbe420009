# 4903: plain shell launch, each rank logs to its own file (logging, timestamps).
# Dataset maps string labels through a label map; rank 3's shard (its slice of the data)
# holds a label ('refund_status') that the label map of this run lacks -> KeyError inside the
# DataLoader worker process (num_workers=1), re-raised in the rank's main process.
import os, sys, logging, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import Dataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, filename=sys.argv[1],
                    format="%(asctime)s [%(process)d] %(levelname)s %(message)s")
log = logging.getLogger()
logging.captureWarnings(True)
LABELS = {"greeting": 0, "order_status": 1, "cancel_order": 2, "shipping_info": 3, "goodbye": 4}
class IntentShard(Dataset):
    def __init__(self, r):
        g = torch.Generator().manual_seed(r)
        names = list(LABELS)
        self.rows = [(torch.randn(20, generator=g), names[i % 5]) for i in range(96)]
        if r == 3:
            self.rows[61] = (self.rows[61][0], "refund_status")
    def __len__(self): return len(self.rows)
    def __getitem__(self, i):
        x, lab = self.rows[i]
        return x, LABELS[lab]
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
log.info("rank %d/%d started, shard rows=96", rank, world)
dl = DataLoader(IntentShard(rank), batch_size=8, shuffle=False, num_workers=1)
model = DDP(nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 5)))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
try:
    for epoch in range(2):
        for step, (x, y) in enumerate(dl, 1):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 3 == 0:
                log.info("epoch %d step %2d/%d loss %.4f", epoch, step, len(dl), loss.item())
        log.info("epoch %d done", epoch)
except Exception:
    log.exception("training failed")
    raise
dist.barrier()
log.info("finished")
