# A custom autograd Function (straight-through quantizer) raises in backward on one rank only,
# when that rank's saved input has a non-finite value. Logged with logging.exception.
import os, time, logging, math
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = rank; return True
h = logging.StreamHandler(); h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] [RANK %(rank)s] %(message)s"))
log = logging.getLogger("train"); log.addHandler(h); log.setLevel(logging.INFO)

class STEQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x); ctx.scale = scale
        return torch.round(x * scale) / scale
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        if not torch.isfinite(x).all():
            raise ValueError(f"STEQuant.backward: non-finite values in saved input "
                             f"({int((~torch.isfinite(x)).sum())} of {x.numel()} elements)")
        return g * (x.abs() <= 1.0 / ctx.scale * 127), None

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    log.info("initialized process group (world_size=%d)", world)
    torch.manual_seed(0)
    w1 = torch.nn.Parameter(torch.randn(32, 16) * 0.1)
    w = torch.nn.Parameter(torch.randn(16, 8) * 0.1)
    opt = torch.optim.SGD([w1, w], lr=0.1)
    torch.manual_seed(100 + rank)
    for step in range(12):
        x = torch.randn(16, 32)
        if rank == 2 and step == 7:
            x[3, 5] = float("inf")          # one bad feature value in this rank's batch
        y = STEQuant.apply(x @ w1, 16.0) @ w
        loss = (y ** 2).mean()
        opt.zero_grad()
        loss.backward()
        for p in [w1, w]:
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.15)
    log.info("done")

try:
    main()
except Exception:
    log.exception("training failed")
    raise SystemExit(1)
