"""Healthy autoencoder run writing per-rank log files; run.sh sends SIGINT to the torchrun
launcher from outside after ~20 s while all ranks are training (control, truth none)."""
import datetime, logging, os, time
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
os.makedirs("logs", exist_ok=True)
log = logging.getLogger("ae")
log.setLevel(logging.INFO)
h = logging.FileHandler(f"logs/train_rank{rank}.log", mode="w")
h.setFormatter(logging.Formatter(f"%(asctime)s [rank {rank}] %(levelname)s %(name)s: %(message)s")); log.addHandler(h)
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
log.info("process group ready: world_size=%d pid=%d", world, os.getpid())
model = DDP(nn.Sequential(nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 64)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
steps = 400
for step in range(1, steps + 1):
    x = torch.randn(32, 64)
    loss = nn.functional.mse_loss(model(x), x)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        log.info("step %d/%d recon_loss %.4f", step, steps, loss.item())
    time.sleep(0.1)
log.info("done")
dist.destroy_process_group()
