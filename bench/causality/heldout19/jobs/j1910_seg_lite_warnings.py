"""Tiny semantic-segmentation net on synthetic scenes with random-affine augmentation,
DDP (find_unused_parameters=True), run as a Kubeflow PyTorchJob.  A healthy run."""
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import hx19lib

C = 4


def scene(g, n):
    img = torch.rand(n, 3, 32, 32, generator=g) * 0.2
    mask = torch.zeros(n, 32, 32, dtype=torch.long)
    for k in range(1, C - 1):  # class C-1 never occurs in these scenes
        x0, y0 = torch.randint(0, 24, (2,), generator=g).tolist()
        img[:, k - 1, y0:y0 + 8, x0:x0 + 8] += 0.8
        mask[:, y0:y0 + 8, x0:x0 + 8] = k
    return img, mask


def augment(img, mask, g):
    theta = torch.eye(2, 3).repeat(len(img), 1, 1)
    theta[:, :, 2] = (torch.rand(len(img), 2, generator=g) - 0.5) * 0.2
    grid = F.affine_grid(theta, img.shape)
    img = F.grid_sample(img, grid)
    mask = F.grid_sample(mask[:, None].float(), grid, mode="nearest")[:, 0].long()
    return img, mask


def iou_per_class(pred, mask):
    p, m = pred.numpy(), mask.numpy()
    inter = np.array([((p == c) & (m == c)).sum() for c in range(C)], dtype=float)
    union = np.array([((p == c) | (m == c)).sum() for c in range(C)], dtype=float)
    return inter / union


def main():
    rank, world, _ = hx19lib.init()
    pod = os.environ.get("POD_NAME")
    print(f"{pod}: rank {rank}/{world} ready")
    g = torch.Generator().manual_seed(10 + rank)
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1),
                        nn.ReLU(), nn.Conv2d(16, C, 1))
    model = DDP(net, find_unused_parameters=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    t0 = time.time()
    for step in range(30):
        img, mask = augment(*scene(g, 8), g)
        out = model(img)
        loss = F.cross_entropy(out, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 9:
            iou = iou_per_class(out.argmax(1), mask)
            print(f"{pod}: step {step} loss {loss.item():.3f} mIoU {np.nanmean(iou):.3f} ({time.time() - t0:.1f}s)")
        hx19lib.pace(0.12)
    if rank == 0:
        torch.save(net.state_dict(), "seg-lite.pt")
        print(f"{pod}: saved seg-lite.pt")
    dist_done = hx19lib.mean_across(1.0)
    print(f"{pod}: training complete ({dist_done:.0f})")


if __name__ == "__main__":
    main()
