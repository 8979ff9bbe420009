# 4604: torchrun (shim, default redirects); logging with a Filter that adds the rank to every
# record (root handler, so torch's own INFO lines get it too); a hand-made progress bar on rank 0
# only (\r on stderr). Rank 2's shard holds a sample whose "tokens" tree refers back to itself,
# and the user transform flatten() recurses until RecursionError.
import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = rank
        return True
h = logging.StreamHandler(sys.stdout); h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] [RANK %(rank)s] %(name)s - %(message)s"))
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("asr.train")

def flatten(x):
    if isinstance(x, (list, tuple)):
        out = []
        for e in x:
            out.extend(flatten(e))
        return out
    return [x]

class Shard(torch.utils.data.Dataset):
    def __init__(self, r):
        g = torch.Generator().manual_seed(r)
        self.items = [[[int(v) for v in torch.randint(0, 30, (4,), generator=g)], [1, [2, 3]]] for _ in range(64)]
        if r == 2:
            bad = [5, 6]; bad.append(bad)   # cyclic structure from a bad merge in the export
            self.items[37] = [bad, [1]]
    def __len__(self): return len(self.items)
    def __getitem__(self, i):
        try:
            t = flatten(self.items[i])[:6]
        except RecursionError:
            log.error("transform failed on sample %d of shard %d", i, rank)
            raise
        return torch.tensor(t + [0] * (6 - len(t)), dtype=torch.float32)

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
log.info("world_size=%d, loading shard %d", world, rank)
dl = torch.utils.data.DataLoader(Shard(rank), batch_size=4, shuffle=False)
torch.manual_seed(0)
model = DDP(torch.nn.Linear(6, 1)); opt = torch.optim.SGD(model.parameters(), lr=1e-3)
for epoch in range(2):
    for i, x in enumerate(dl):
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0:
            n = i + 1; bar = "#" * (n * 20 // len(dl))
            sys.stderr.write(f"\repoch {epoch}: {n * 100 // len(dl):3d}%|{bar:<20}| {n}/{len(dl)} loss={loss.item():.3f}")
            sys.stderr.flush()
        time.sleep(0.02)
    if rank == 0:
        sys.stderr.write("\n")
    log.info("epoch %d done, last loss %.4f", epoch, loss.item())
dist.barrier()
log.info("done")
