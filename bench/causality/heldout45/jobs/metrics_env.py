# 4505: deprecated launch with --use_env, 3 ranks. Small GRU forecaster on synthetic sensor series,
# DDP. Ranks take turns writing the periodic metrics export (every 4th step, (step // 4) % world == rank);
# the export reads the sink directory from the environment with os.environ[...]. The launch command
# sets METRICS_DIR but not METRICS_TAG, which only the every-20th-step export reads (step 20 is rank 2.s turn).
import os, time, json
from datetime import timedelta
import torch, torch.distributed as dist
from torch import nn

local_rank = int(os.environ["LOCAL_RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
rank, world = dist.get_rank(), dist.get_world_size()
print(f"worker {rank}/{world} local_rank={local_rank} up; metrics to {os.environ['METRICS_DIR']}", flush=True)

class Forecaster(nn.Module):
    def __init__(self):
        super().__init__(); self.gru = nn.GRU(3, 12, batch_first=True); self.out = nn.Linear(12, 1)
    def forward(self, x):
        h, _ = self.gru(x); return self.out(h[:, -1])

torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(Forecaster())
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
g = torch.Generator().manual_seed(rank)
t = torch.linspace(0, 12, 400)
series = torch.stack([torch.sin(t + rank), torch.cos(0.5 * t), 0.1 * torch.randn(400, generator=g)], 1)

def export_metrics(step, loss):
    out = {"step": step, "rank": rank, "loss": loss}
    if step % 20 == 0:  # every 20th step: tagged export for the dashboard
        out["tag"] = os.environ["METRICS_TAG"]
    with open(os.path.join(os.environ["METRICS_DIR"], f"metrics-{rank}.jsonl"), "a") as f:
        f.write(json.dumps(out) + "\n")

for step in range(1, 41):
    idx = torch.randint(0, 380, (16,), generator=g)
    x = torch.stack([series[i:i + 16] for i in idx]); y = torch.stack([series[i + 16, :1] for i in idx])
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 4 == 0 and (step // 4) % world == rank:
        export_metrics(step, loss.item())
        print(f"worker {rank}: exported metrics at step {step} (mse {loss.item():.4f})", flush=True)
    time.sleep(0.05)
dist.destroy_process_group()
