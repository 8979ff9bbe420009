#!/usr/bin/env python3
"""Small CNN-free image-feature classifier; shards re-read from object storage every epoch."""
import datetime, logging, os, time
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = os.environ.get("RANK", "?"); return True

_h = logging.StreamHandler()
_h.addFilter(RankFilter())
_h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [rank%(rank)s] %(name)s: %(message)s"))
logging.basicConfig(level=logging.INFO, handlers=[_h])
log = logging.getLogger("train")

class ShardStore:
    """Stand-in for the object-store client: returns a tensor shard, latency depends on storage tier."""
    tiers = {0: "hot", 1: "hot", 2: "hot", 3: "hot"}
    def __init__(self, epoch):
        self.epoch = epoch
    def tier(self, shard):
        # lifecycle policy moved shard 2 to the archive tier after the first pass
        return "archive" if (shard == 2 and self.epoch >= 1) else self.tiers[shard]
    def read(self, shard, n=512):
        t = self.tier(shard)
        for chunk in range(8):
            time.sleep(0.02 if t == "hot" else 15.0)
        g = torch.Generator().manual_seed(1000 * shard + self.epoch)
        x = torch.randn(n, 48, generator=g)
        return x, (x[:, :4].sum(1) > 0).long()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(48, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        log.info("epoch %d: reading shard %d from s3://feat-bucket/train/part-%05d", epoch, rank, rank)
        t0 = time.time()
        x, y = ShardStore(epoch).read(rank)
        log.info("epoch %d: shard ready (%d rows, %.2fs)", epoch, x.shape[0], time.time() - t0)
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=20), wait_all_ranks=True)
        for step in range(8):
            xb, yb = x[step * 64:(step + 1) * 64], y[step * 64:(step + 1) * 64]
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 2 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
