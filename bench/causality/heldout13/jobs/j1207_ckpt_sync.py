"""GRU next-value forecaster; rank 0 writes a checkpoint every 10 steps and pushes it
to the 'object store' mount before training continues."""
import os
import shutil
import time

import torch
import torch.nn as nn

from trainlib import init_distributed, average_gradients


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 32, batch_first=True)
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        h, _ = self.gru(x)
        return self.head(h[:, -1])


def push_checkpoint(path, remote_dir):
    # copy then poll until the mount reports the object as committed
    dst = os.path.join(remote_dir, os.path.basename(path))
    shutil.copy(path, dst + ".part")
    while not os.path.exists(dst + ".committed"):
        time.sleep(0.5)
    os.replace(dst + ".part", dst)


def main():
    rank, world = init_distributed(timeout_s=12)
    print(f"forecaster rank={rank} world={world}")
    torch.manual_seed(0)
    model = Forecaster()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 61):
        x = torch.randn(8, 12, 4, generator=g).cumsum(1)
        y = x[:, -1] + 0.1
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        if step % 5 == 0:
            print(f"step {step:3d} loss {loss.item():.4f}")
        if rank == 0 and step % 10 == 0:
            torch.save(model.state_dict(), "ckpt_latest.pt")
            print(f"step {step}: pushing checkpoint to {os.environ['CKPT_REMOTE']}")
            push_checkpoint("ckpt_latest.pt", os.environ["CKPT_REMOTE"])
            print(f"step {step}: checkpoint pushed")
        time.sleep(0.05)
    print("training complete")


if __name__ == "__main__":
    main()
