# 4605 (control): hand-launched, healthy. Logging with a rank Filter; rank 1's tokenizer
# "download" fails twice (logged at ERROR, as many download helpers do) and succeeds on the
# third try. Other ranks log a WARNING about a slow mirror. Training finishes normally.
import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = rank
        return True
h = logging.StreamHandler(); h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("[%(asctime)s][RANK %(rank)s][%(levelname)s] %(name)s: %(message)s"))
log = logging.getLogger("fetch"); log.addHandler(h); log.setLevel(logging.INFO); log.propagate = False
tl = logging.getLogger("train"); tl.addHandler(h); tl.setLevel(logging.INFO); tl.propagate = False

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
def download(name, fails):
    for attempt in range(1, 4):
        if attempt <= fails:
            log.error("retrying download (%d/3): %s: ConnectionResetError(104, 'Connection reset by peer')", attempt, name)
            time.sleep(0.3)
            continue
        log.info("downloaded %s (attempt %d)", name, attempt)
        return
    raise RuntimeError("download failed")
if rank != 1:
    log.warning("mirror eu-2 slow (2.4 MB/s), consider HF_ENDPOINT")
download("tokenizer.json", 2 if rank == 1 else 0)
dist.barrier()
torch.manual_seed(0)
model = DDP(torch.nn.Linear(10, 3)); opt = torch.optim.Adam(model.parameters(), lr=1e-2)
g = torch.Generator().manual_seed(rank)
for step in range(1, 31):
    x = torch.randn(16, 10, generator=g); y = torch.randint(0, 3, (16,), generator=g)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        tl.info("step %d loss %.4f", step, loss.item())
dist.barrier()
if rank == 0:
    tl.info("saved final model to /tmp/helper46/final.pt")
    torch.save(model.module.state_dict(), "/tmp/helper46/final.pt")
dist.destroy_process_group()
tl.info("exiting")
