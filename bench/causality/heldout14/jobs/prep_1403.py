"""Fills the per-node checkpoint caches for case 1403.  nvme0-2 hold the step-1200
checkpoint as written by the training script (model.module.state_dict()).  nvme3 still
holds a copy pushed by an older export script that saved ddp_model.state_dict(), so its keys
carry the 'module.' prefix."""
import os
import sys
import torch
sys.path.insert(0, os.getcwd())
from train import TinyUNet

torch.manual_seed(3)
sd = TinyUNet().state_dict()
for r in range(4):
    d = f"nvme{r}"
    os.makedirs(d, exist_ok=True)
    model_sd = sd if r != 3 else {"module." + k: v for k, v in sd.items()}
    torch.save({"model": model_sd, "step": 1200}, os.path.join(d, "last.pt"))
