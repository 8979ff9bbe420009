"""Sequence classifier (embedding bag); after training, every rank runs the final test on its
own test shard, then the metrics are summed with all_reduce.  Test shards go through a length
filter (drop sequences shorter than min_len tokens).  Planted fault: rank 2's test shard holds
only short sequences, so nothing survives the filter and torch.cat(preds) raises on an empty
list; the other ranks block in all_reduce and fail as collateral."""
import datetime, logging, os, sys
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format=f"%(asctime)s | rank={rank} | %(levelname)-7s | %(name)s | %(message)s")
log = logging.getLogger("seqcls")
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
torch.manual_seed(42)
V, C, MIN_LEN = 1000, 4, 8

class Bag(nn.Module):
    def __init__(s):
        super().__init__(); s.emb = nn.EmbeddingBag(V, 48, mode="mean"); s.fc = nn.Linear(48, C)
    def forward(s, toks, offs): return s.fc(s.emb(toks, offs))

def make_shard(seed, n, lo, hi):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        L = int(torch.randint(lo, hi, (1,), generator=g)); t = torch.randint(0, V, (L,), generator=g)
        out.append((t, int(t[:3].sum()) % C))
    return out

def collate(batch):
    toks = [b[0] for b in batch]; offs = torch.tensor([0] + [len(t) for t in toks[:-1]]).cumsum(0)
    return torch.cat(toks), offs, torch.tensor([b[1] for b in batch])

model = DDP(Bag()); opt = torch.optim.Adam(model.parameters(), lr=5e-3)
train = make_shard(10 + rank, 240, 8, 40)
log.info("train shard: %d sequences", len(train))
for ep in range(2):
    for i, (toks, offs, y) in enumerate(DataLoader(train, batch_size=16, shuffle=True, collate_fn=collate)):
        loss = nn.functional.cross_entropy(model(toks, offs), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if i % 5 == 0:
            log.info("epoch %d step %d/%d loss %.4f", ep, i, len(train) // 16, loss.item())

# ---- final test ----
hi = 8 if rank == 2 else 40  # planted: rank 2's test shard only has short sequences
test = [s for s in make_shard(100 + rank, 60, 2, hi) if len(s[0]) >= MIN_LEN]
log.info("test shard: %d sequences after min_len=%d filter", len(test), MIN_LEN)
model.eval(); preds, labels = [], []
with torch.no_grad():
    for toks, offs, y in DataLoader(test, batch_size=16, collate_fn=collate):
        preds.append(model.module(toks, offs).argmax(1)); labels.append(y)
preds = torch.cat(preds); labels = torch.cat(labels)
stats = torch.tensor([(preds == labels).sum().item(), labels.numel()], dtype=torch.float64)
dist.all_reduce(stats)
if rank == 0:
    log.info("final test accuracy %.4f over %d sequences", stats[0] / stats[1], int(stats[1]))
dist.destroy_process_group()
