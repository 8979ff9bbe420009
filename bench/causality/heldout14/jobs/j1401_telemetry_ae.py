"""Telemetry anomaly autoencoder (DDP).  Windows of 32 sensor samples are read from
per-rank JSON-lines shards by a DataLoader with 2 worker processes."""
import json
import logging
import os
import sys
import time

import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

import trainlib

WINDOW = 32
log = logging.getLogger("telemetry_ae")


class TelemetryWindows(Dataset):
    def __init__(self, path, window=WINDOW):
        with open(path) as f:
            self.lines = f.read().splitlines()
        self.window = window

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        rec = json.loads(self.lines[i])
        vals = [float(v) for v in rec["values"]]
        if len(vals) != self.window:
            raise ValueError(f"record {rec['id']}: expected {self.window} samples, got {len(vals)}")
        x = torch.tensor(vals)
        return (x - x.mean()) / (x.std() + 1e-6)


class ConvAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
                                 nn.Conv1d(8, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2))
        self.dec = nn.Sequential(nn.ConvTranspose1d(16, 8, 2, stride=2), nn.ReLU(),
                                 nn.ConvTranspose1d(8, 1, 2, stride=2))

    def forward(self, x):
        return self.dec(self.enc(x.unsqueeze(1))).squeeze(1)


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format=f"%(asctime)s %(levelname)s %(name)s [{rank}/{world}] %(message)s")
    trainlib.seed_everything(1234)
    shard = os.path.join("data", f"telemetry-{rank:05d}-of-{world:05d}.jsonl")
    ds = TelemetryWindows(shard)
    dl = DataLoader(ds, batch_size=16, shuffle=False, num_workers=2, drop_last=True)
    log.info("shard %s: %d windows, %d batches/epoch", shard, len(ds), len(dl))
    model = DDP(ConvAE())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(3):
        meter = trainlib.Meter()
        t0 = time.time()
        for step, x in enumerate(dl):
            recon = model(x)
            loss = nn.functional.mse_loss(recon, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            meter.update(loss.item(), x.size(0))
            if step % 4 == 0:
                log.info("epoch %d step %d/%d recon_mse %.4f", epoch, step, len(dl), loss.item())
            time.sleep(0.05)
        avg = trainlib.all_reduce_mean(meter.avg)
        log.info("epoch %d done in %.1fs, global recon_mse %.4f", epoch, time.time() - t0, avg)
    if rank == 0:
        torch.save(model.module.state_dict(), "telemetry_ae.pt")
        log.info("saved telemetry_ae.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
