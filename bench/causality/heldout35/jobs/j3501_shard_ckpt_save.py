"""Tiny token-classifier trained with DDP; every rank writes its own checkpoint shard
(optimizer + RNG state) every `save_every` steps, the way sharded-optimizer jobs do.
Planted fault: rank 2's scratch dir holds a stale symlink for its shard that points at
/dev/full (created by run.sh), so its torch.save fails with ENOSPC."""
import datetime, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
os.makedirs("logs", exist_ok=True)
log = logging.getLogger("trainer")
log.setLevel(logging.INFO)
fmt = logging.Formatter(f"%(asctime)s [rank {rank}] %(levelname)s %(name)s: %(message)s")
fh = logging.FileHandler(f"logs/train_rank{rank}.log", mode="w"); fh.setFormatter(fmt); log.addHandler(fh)

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
log.info("process group ready: backend=gloo world_size=%d pid=%d", world, os.getpid())
torch.manual_seed(1234 + rank)

class Tagger(nn.Module):
    def __init__(s, vocab=500, dim=32, tags=9):
        super().__init__(); s.emb = nn.Embedding(vocab, dim); s.rnn = nn.GRU(dim, dim, batch_first=True); s.out = nn.Linear(dim, tags)
    def forward(s, x):
        h, _ = s.rnn(s.emb(x)); return s.out(h)

model = DDP(Tagger())
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
lossf = nn.CrossEntropyLoss()
steps, save_every = 24, 12

log.info("config: steps=%d save_every=%d batch=16 seq=20 lr=3e-3", steps, save_every)
for step in range(1, steps + 1):
    x = torch.randint(0, 500, (16, 20)); y = x % 9
    loss = lossf(model(x).reshape(-1, 9), y.reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 4 == 0:
        log.info("step %d/%d loss %.4f lr %.1e", step, steps, loss.item(), opt.param_groups[0]["lr"])
    if step % save_every == 0:
        d = os.path.join("ckpt", f"step_{step:04d}"); os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"shard_{rank:02d}.pt")
        log.info("saving optimizer shard -> %s", path)
        t0 = time.time()
        try:
            with open(path, "wb") as f:
                torch.save({"step": step, "optim": opt.state_dict(), "rng": torch.get_rng_state(),
                            "model": model.module.state_dict()}, f)
        except Exception:
            log.exception("checkpoint shard save failed (step %d)", step)
            raise
        log.info("shard saved in %.2fs", time.time() - t0)
        dist.barrier()
        if rank == 0:
            log.info("checkpoint step_%04d complete (%d shards)", step, world)
log.info("training done")
dist.destroy_process_group()
