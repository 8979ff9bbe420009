# 4106: healthy autoencoder run, 400 steps; stopped from outside
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    rank = int(os.environ["RANK"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 8), nn.ReLU(), nn.Linear(8, 32)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 401):
        x = torch.randn(16, 32, generator=g)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"[{rank}] step {step:4d}/400 recon {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
