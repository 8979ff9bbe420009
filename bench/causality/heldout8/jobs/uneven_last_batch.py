# Manual sharding samples[rank::world] of 49 samples: rank 0 gets 13, the others 12; with batch 4
# only rank 0 has a last batch of 1, and a reshape that assumes a full batch fails there.
# JSON-lines logging on stdout; the uncaught traceback goes to stderr as usual.
import os, sys, time, json
from datetime import datetime, timezone
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
def jlog(level, msg, **kw):
    print(json.dumps({"ts": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                      "level": level, "rank": rank, "msg": msg, **kw}), flush=True)

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
BATCH, SEQ, DIM = 4, 2, 3
torch.manual_seed(1)
data = torch.randn(49, SEQ * DIM)
shard = data[rank::world]
jlog("info", "shard loaded", samples=len(shard), batch_size=BATCH)
lin = torch.nn.Linear(DIM, 4)
for epoch in range(2):
    for i in range(0, len(shard), BATCH):
        xb = shard[i:i + BATCH]
        x = xb.view(BATCH, SEQ, DIM)          # bug: assumes every batch is full
        out = lin(x).sum()
        out.backward()
        for p in lin.parameters():
            dist.all_reduce(p.grad)
        jlog("info", "train step", epoch=epoch, step=i // BATCH, loss=round(out.item(), 4))
        time.sleep(0.1)
jlog("info", "finished")
