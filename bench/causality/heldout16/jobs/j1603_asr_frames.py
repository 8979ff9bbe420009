"""Frame classifier (conv + GRU) over cached filterbank features, hand-written all_reduce.
Each epoch reads this worker's feature cache file for that epoch."""
import os
import socket
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients, all_reduce_mean, seed_everything, fake_compute


class FrameTagger(nn.Module):
    def __init__(self, n_mels=40, hidden=64, n_phones=32):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, 5, padding=2)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_phones)

    def forward(self, x):  # x: B, T, n_mels
        h = F.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        h, _ = self.gru(h)
        return self.out(h)


def load_cache(rank, epoch):
    path = f"cache/feats-w{rank}-e{epoch}.npy"
    arr = np.load(path)
    return torch.from_numpy(arr).view(-1, 16, 40)


def main():
    rank, world = init_distributed(timeout_s=20)
    seed_everything(99)
    print(f"[{time.strftime('%H:%M:%S')}] {socket.gethostname()} pid {os.getpid()}: joined process group as {rank}/{world}", flush=True)
    model = FrameTagger()
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        t0 = time.time()
        feats = load_cache(rank, epoch)
        print(f"[{time.strftime('%H:%M:%S')}] epoch {epoch}: {len(feats)} utterances from feature cache", flush=True)
        g = torch.Generator().manual_seed(epoch * 10 + rank)
        for step in range(0, len(feats), 16):
            xb = feats[step:step + 16]
            yb = torch.randint(0, 32, (xb.shape[0], 16), generator=g)
            loss = F.cross_entropy(model(xb).reshape(-1, 32), yb.reshape(-1))
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            fake_compute(0.03)
            if (step // 16) % 6 == 0:
                l = all_reduce_mean(loss.item())
                rate = (step + 16) / (time.time() - t0)
                print(f"[{time.strftime('%H:%M:%S')}] epoch {epoch} | step {step // 16:3d}/{len(feats) // 16} | loss {l:.3f} | {rate:.1f} utt/s", flush=True)
    print(f"[{time.strftime('%H:%M:%S')}] training complete", flush=True)


if __name__ == "__main__":
    main()
