# Rank 0 writes the checkpoint into a directory it may not write to (run as an unprivileged user).
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO)
log = logging.getLogger(f"rank{rank}")
out_dir = os.environ.get("OUT_DIR", "/tmp/denpex-heldout7/ckpt-ro")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
model = nn.Linear(16, 4)
opt = torch.optim.Adam(model.parameters())
for step in range(1, 9):
    loss = model(torch.randn(8, 16)).pow(2).mean()
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
    opt.step()
    log.info("step %d loss %.4f", step, loss.item())
    if step % 4 == 0:
        if rank == 0:
            path = os.path.join(out_dir, f"checkpoint-{step}.pt")
            log.info("saving checkpoint to %s", path)
            with open(path, "wb") as f:
                torch.save({"model": model.state_dict(), "step": step}, f)
        dist.barrier()
    time.sleep(0.2)
log.info("done")
