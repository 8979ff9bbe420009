# DDP regression on tabular rows; logging stamped with asctime and pid only
import os, logging, torch, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
logging.basicConfig(format="%(asctime)s %(process)d %(message)s", level=logging.INFO)
log = logging.getLogger("train")
rank = int(os.environ["RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
log.info("joined process group as rank %d of %d", rank, dist.get_world_size())
g = torch.Generator().manual_seed(rank)
model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(1, 41):
    x = torch.randn(16, 8, generator=g); y = x[:, :1] * 2
    if rank == 1 and step == 17:
        x[5, 3] = float("nan")  # a row with a missing reading parsed as NaN
    loss = torch.nn.functional.mse_loss(model(x), y)
    if not torch.isfinite(loss):
        raise RuntimeError(f"non-finite loss {loss.item()} at step {step}")
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 4 == 0:
        log.info("step %d loss %.4f", step, loss.item())
log.info("finished")
