"""Create a checkpoint directory as left behind by a previous (preempted) run.
The copy to this node was interrupted, so one optimizer shard is missing."""
import os, sys, torch
sys.path.insert(0, ".")
from trainlib import TinyMLP
world = 4
d = "checkpoints/step_000300"
os.makedirs(d, exist_ok=True)
m = TinyMLP()
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
torch.save({"model": m.state_dict(), "step": 300, "epoch": 3}, f"{d}/model.pt")
for r in range(world):
    if r == 1:
        continue
    torch.save({"optimizer": opt.state_dict(), "rng": torch.get_rng_state()}, f"{d}/optim_rank{r:02d}.pt")
with open("checkpoints/latest", "w") as f:
    f.write("step_000300\n")
