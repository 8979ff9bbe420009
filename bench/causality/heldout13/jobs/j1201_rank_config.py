"""Tabular classifier, DDP; every rank looks up its own data/augmentation settings
in a per-rank section of run_config.json."""
import json
import os
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP


def load_rank_settings(path, rank):
    with open(path) as f:
        cfg = json.load(f)
    common = cfg["common"]
    per_rank = cfg["per_rank"][f"rank{rank}"]
    return {**common, **per_rank}


@record
def main():
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=12))
    print(f"rank {rank}/{world}: process group up")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 3)))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    settings = load_rank_settings("run_config.json", rank)
    print(f"rank {rank}: settings {settings}")
    g = torch.Generator().manual_seed(settings["seed"])
    for step in range(30):
        x = torch.randn(settings["batch_size"], 12, generator=g) * settings["noise"]
        y = torch.randint(0, 3, (settings["batch_size"],), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0 and rank == 0:
            print(f"step {step} loss {loss.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
