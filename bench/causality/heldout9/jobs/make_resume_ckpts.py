import os, sys, time
import torch, torch.nn as nn
root = sys.argv[1]; n = int(sys.argv[2])
for r in range(n):
    d = os.path.join(root, f"node{r}"); os.makedirs(d, exist_ok=True)
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10))
    torch.save(m.state_dict(), os.path.join(d, "run42-step3000.pt"))
    if r == 3:
        time.sleep(0.05)
        old = nn.Sequential(nn.Linear(32, 96), nn.ReLU(), nn.Linear(96, 10))
        torch.save(old.state_dict(), os.path.join(d, "run17-step9000.pt"))
