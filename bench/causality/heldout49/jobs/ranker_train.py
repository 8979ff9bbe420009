# 4906 (control): healthy 4-rank job under torchrun --redirects 3 --log_dir; real warnings
# (lr_scheduler called before optimizer.step, a job WARNING about a slow shard read), exit 0.
import os, time, logging, warnings, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
logging.basicConfig(level=logging.INFO,
                    format="[%(asctime)s][%(levelname)s][%(name)s] %(message)s")
logging.captureWarnings(True)
log = logging.getLogger("ranker")
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
sched.step()   # called before the first optimizer.step() -> UserWarning
g = torch.Generator().manual_seed(rank)
for epoch in range(2):
    t0 = time.time()
    if rank == 1 and epoch == 1:
        time.sleep(2.0)
        log.warning("shard q-%02d read took %.1f s (cold page cache), continuing", rank, time.time() - t0)
    for step in range(1, 21):
        x = torch.randn(32, 24, generator=g); rel = (x[:, 0] > 0).float().unsqueeze(1)
        loss = nn.functional.binary_cross_entropy_with_logits(model(x), rel)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("epoch %d step %d loss %.4f lr %.4f", epoch, step, loss.item(), opt.param_groups[0]["lr"])
    sched.step()
    ndcg = torch.tensor([1.0 - loss.item() / 2])
    dist.all_reduce(ndcg); ndcg /= world
    if rank == 0:
        log.info("epoch %d eval ndcg@10 %.4f", epoch, ndcg.item())
dist.barrier()
log.info("rank %d finished", rank)
dist.destroy_process_group()
