import os, sys, time, datetime, logging
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")

class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                               nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 10)
    def forward(self, x):
        return self.fc(self.f(x).flatten(1))

def batches(rank, n_files):
    g = torch.Generator().manual_seed(100 + rank)
    for i in range(n_files):
        yield torch.randn(16, 3, 24, 24, generator=g), torch.randint(0, 10, (16,), generator=g)

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    host = os.environ.get("NODE_NAME", "localhost")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
    log.info("host=%s rank=%d world=%d master=%s:%s", host, rank, world, os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])
    # each host trains on its local tar files; count comes from the host's file listing
    listing = {0: 20, 1: 7, 2: 20, 3: 20}
    n_files = listing[rank]
    log.info("found %d local shard files", n_files)
    torch.manual_seed(0)
    model = DDP(SmallCNN())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    step = 0
    for x, y in batches(rank, n_files):
        step += 1
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        log.info("step %d loss %.4f lr %.3f", step, loss.item(), 0.05)
        time.sleep(0.2)
    log.info("epoch finished after %d steps, training done", step)
    sys.stdout.flush(); sys.stderr.flush()
    # skip the slow interpreter/process-group teardown, the node is released right away
    os._exit(0)

if __name__ == "__main__":
    main()
