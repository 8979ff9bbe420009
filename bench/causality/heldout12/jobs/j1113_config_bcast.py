"""Task 0 resolves the experiment config and broadcasts it to the other tasks."""
import json
import os
import time
import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients, seed_everything


def build_config(path):
    cfg = json.load(open(path))
    sched = cfg.pop("lr_schedule")
    if sched["type"] == "cosine":
        import math
        total = cfg["steps"]
        cfg["lr_lambda"] = lambda s: 0.5 * (1 + math.cos(math.pi * s / total))
    else:
        cfg["lr_lambda"] = None
    return cfg


def main():
    rank, world = init_distributed(timeout_s=12)
    seed_everything(0)
    print(f"{os.uname().nodename} pid {os.getpid()} joined, world {world}", flush=True)
    obj = [build_config("experiment.json") if rank == 0 else None]
    dist.broadcast_object_list(obj, src=0)
    cfg = obj[0]
    print(f"config: steps={cfg['steps']} lr={cfg['lr']}", flush=True)
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.LambdaLR(opt, cfg["lr_lambda"] or (lambda s: 1.0))
    ds = SyntheticDataset(n=cfg["steps"] * 16, seed=rank)
    for step in range(cfg["steps"]):
        x, y = ds.x[step * 16:(step + 1) * 16], ds.y[step * 16:(step + 1) * 16]
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        sched.step()
        time.sleep(0.03)
    print("done", flush=True)


if __name__ == "__main__":
    main()
