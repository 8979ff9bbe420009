# 4503: torchrun elastic (--nnodes=1:2, c10d). Tiny CNN on random 8x8 "digits", gradients averaged
# by hand with one all_reduce of the flattened grads. Rank 3 is the snapshot writer: at step 15 it
# runs export_snapshot(), a helper pasted from the inference tool that ends with
# dist.destroy_process_group(); rank 3 then carries on training with no process group.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch import nn

def export_snapshot(model, path):
    scripted = torch.jit.trace(model.eval(), torch.zeros(1, 1, 8, 8))
    scripted.save(path)
    model.train()
    dist.destroy_process_group()  # tool cleanup
    print(f"snapshot written to {path}", flush=True)

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
print(f"rank {rank}: joined (restart {os.environ['TORCHELASTIC_RESTART_COUNT']}, run {os.environ['TORCHELASTIC_RUN_ID']})", flush=True)
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
g = torch.Generator().manual_seed(rank)
for step in range(1, 31):
    x = torch.randn(16, 1, 8, 8, generator=g); y = torch.randint(0, 10, (16,), generator=g)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward()
    flat = torch.cat([p.grad.flatten() for p in model.parameters()])
    dist.all_reduce(flat); flat /= world
    i = 0
    for p in model.parameters():
        n = p.numel(); p.grad.copy_(flat[i:i + n].view_as(p)); i += n
    opt.step()
    if step % 5 == 0:
        print(f"rank {rank}: step {step} loss {loss.item():.3f}", flush=True)
    if rank == 3 and step == 15:
        export_snapshot(model, "/tmp/helper45/cnn-step15.pt")
    time.sleep(0.05)
dist.destroy_process_group()
