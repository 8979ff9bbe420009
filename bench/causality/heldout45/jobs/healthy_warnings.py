# 4506 (control): torchrun elastic (--nnodes=1:2, c10d), 4 ranks, healthy. Tiny logistic-regression
# probe on random features, DDP. The code warns on every rank: a UserWarning about clipped features
# at startup, a FutureWarning from a deprecated config key, and a UserWarning when the LR schedule
# hits its floor. The job finishes all steps and exits 0.
import os, time, warnings
from datetime import timedelta
import torch, torch.distributed as dist
from torch import nn

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
cfg = {"lr": 0.2, "warmup": 3, "clip_features": 3.0, "eval_every": 10}
if "eval_every" in cfg:
    warnings.warn("config key 'eval_every' is deprecated and will be removed; use 'eval.interval'", FutureWarning)
g = torch.Generator().manual_seed(rank)
X = torch.randn(256, 10, generator=g) * 1.5
n_clip = int((X.abs() > cfg["clip_features"]).sum())
if n_clip:
    warnings.warn(f"rank {rank}: {n_clip} feature values outside +/-{cfg['clip_features']} were clipped")
X = X.clamp(-cfg["clip_features"], cfg["clip_features"])
w_true = torch.linspace(-1, 1, 10)
Y = (X @ w_true > 0).float()
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Linear(10, 1))
opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.25, 1.0 - s / 20))
floor_warned = False
for step in range(1, 31):
    idx = torch.randint(0, 256, (32,), generator=g)
    loss = nn.functional.binary_cross_entropy_with_logits(model(X[idx]).squeeze(1), Y[idx])
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    if sched.get_last_lr()[0] <= 0.25 * cfg["lr"] and not floor_warned:
        warnings.warn(f"lr reached its floor {sched.get_last_lr()[0]:.3f} at step {step}; later steps use a constant lr", UserWarning)
        floor_warned = True
    if step % 10 == 0:
        with torch.no_grad():
            acc = ((model(X).squeeze(1) > 0).float() == Y).float().mean()
        t = acc.clone(); dist.all_reduce(t); t /= world
        print(f"rank {rank} step {step} loss {loss.item():.4f} acc {acc.item():.3f} (mean acc {t.item():.3f})", flush=True)
    time.sleep(0.05)
dist.barrier()
if rank == 0:
    print("training finished", flush=True)
dist.destroy_process_group()
