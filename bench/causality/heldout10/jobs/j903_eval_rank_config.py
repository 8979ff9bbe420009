"""Data-parallel training where the last rank also runs periodic evaluation
on a held-out split (so rank 0 stays free for checkpointing/logging)."""
import json
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset, seed_everything


def evaluate(model, cfg, split_ds):
    ecfg = cfg["eval"]
    loader = torch.utils.data.DataLoader(split_ds, batch_size=ecfg["batch_size"])
    k = ecfg["metrics"]["topk"]
    correct = total = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            top = model(x).topk(k, dim=1).indices
            correct += (top == y[:, None]).any(dim=1).sum().item()
            total += len(y)
    model.train()
    return correct / total


def main():
    cfg = json.load(open(sys.argv[1]))
    rank, world = init_distributed(timeout_s=12)
    eval_rank = world - 1
    seed_everything(1234)
    model = DDP(TinyMLP(**cfg["model"]))
    opt = torch.optim.AdamW(model.parameters(), **cfg["optim"])
    train_ds = SyntheticDataset(n=512, seed=7)
    sampler = torch.utils.data.distributed.DistributedSampler(train_ds, num_replicas=world, rank=rank)
    loader = torch.utils.data.DataLoader(train_ds, batch_size=cfg["train"]["batch_size"], sampler=sampler)
    val_ds = SyntheticDataset(n=128, seed=8) if rank == eval_rank else None
    if rank == 0:
        print(f"training with world_size={world}, eval on rank {eval_rank}", flush=True)
    step = 0
    for epoch in range(cfg["train"]["epochs"]):
        sampler.set_epoch(epoch)
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.15)
            step += 1
            if rank == 0 and step % cfg["train"]["log_every"] == 0:
                print(f"epoch={epoch} step={step} loss={loss.item():.4f}", flush=True)
            if rank == eval_rank and step % cfg["eval"]["every"] == 0:
                acc = evaluate(model.module, cfg, val_ds)
                print(f"eval step={step} top-k acc={acc:.3f}", flush=True)
    dist.barrier()
    if rank == 0:
        print("finished", flush=True)


if __name__ == "__main__":
    main()
