"""Small Trainer with callbacks (LR schedule, throughput, metrics writer) for an image-ish
MLP classifier, hand-written gradient all_reduce.  The metrics writer is created only on
the main process; the callbacks are told whether they run on the main process of a node."""
import json
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients, all_reduce_mean, seed_everything, TinyMLP


class MetricsWriter:
    """Stand-in for a TensorBoard SummaryWriter: appends JSON lines to a file."""
    def __init__(self, path):
        self.f = open(path, "a")

    def add_scalar(self, tag, value, step):
        self.f.write(json.dumps({"tag": tag, "value": value, "step": step}) + "\n")
        self.f.flush()


class Callback:
    def on_step_end(self, trainer, step, logs):
        pass


class LRWarmup(Callback):
    def on_step_end(self, trainer, step, logs):
        for g in trainer.opt.param_groups:
            g["lr"] = 1e-3 * min(1.0, (step + 1) / 20)


class Throughput(Callback):
    def __init__(self):
        self.t0 = time.time()

    def on_step_end(self, trainer, step, logs):
        logs["samples_per_s"] = (step + 1) * trainer.bs * trainer.world / (time.time() - self.t0)


class TensorBoardLogger(Callback):
    def __init__(self, writer, is_local_main, every=10):
        self.writer, self.is_local_main, self.every = writer, is_local_main, every

    def on_step_end(self, trainer, step, logs):
        if self.is_local_main and step % self.every == 0 and step > 0:
            for k, v in logs.items():
                self.writer.add_scalar(f"train/{k}", v, step)


class Trainer:
    def __init__(self, model, rank, world, callbacks, bs=32):
        self.model, self.rank, self.world, self.callbacks, self.bs = model, rank, world, callbacks, bs
        self.opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)

    def fit(self, steps):
        g = torch.Generator().manual_seed(self.rank)
        for step in range(steps):
            x = torch.randn(self.bs, 16, generator=g)
            y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
            loss = F.cross_entropy(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            average_gradients(self.model)
            self.opt.step()
            time.sleep(0.04)
            logs = {"loss": all_reduce_mean(loss.item())}
            for cb in self.callbacks:
                cb.on_step_end(self, step, logs)
            if self.rank == 0 and step % 5 == 0:
                print(f"step {step}/{steps} " + " ".join(f"{k}={v:.4g}" for k, v in logs.items()), flush=True)


def main():
    rank, world = init_distributed(timeout_s=20)
    local_rank = int(os.environ["LOCAL_RANK"])
    seed_everything(11)
    print(f"{os.environ.get('NODE_NAME')} local_rank={local_rank} global_rank={rank} world={world}", flush=True)
    model = TinyMLP()
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    writer = MetricsWriter("metrics.jsonl") if rank == 0 else None
    callbacks = [LRWarmup(), Throughput(), TensorBoardLogger(writer, is_local_main=(local_rank == 0))]
    Trainer(model, rank, world, callbacks).fit(80)
    print(f"rank {rank} finished", flush=True)


if __name__ == "__main__":
    main()
