import json
import logging
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, average_gradients

CLASS_WEIGHTS = torch.tensor([1.0, 1.3, 0.8, 2.0])


def main():
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format=f"%(asctime)s [{rank}/{world}] %(levelname)s %(message)s")
    log = logging.getLogger("train")
    rank, world = init_distributed(timeout_s=10)
    labels = torch.tensor(json.load(open(f"meta/labels-{rank}.json"))["labels"])
    g = torch.Generator().manual_seed(rank)
    feats = torch.randn(len(labels), 16, generator=g)
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    norm = json.load(open(f"meta/norm-{rank}-a.json"))
    try:
        for step in range(20):
            if step == 8:
                # switch to second half of the shard: reload normalisation stats
                time.sleep(0.3 + 0.4 * rank)
                with open(f"meta/norm-{rank}-b.json") as f:
                    norm = json.load(f)
                log.info("loaded normalisation stats for part b")
            sl = slice(step * 16, step * 16 + 16)
            x = (feats[sl] - norm["mean"]) / norm["std"]
            y = labels[sl]
            w = CLASS_WEIGHTS[y]
            loss = (F.cross_entropy(model(x), y, reduction="none") * w).mean()
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            time.sleep(0.1)
            if step % 4 == 0:
                log.info("step %d weighted loss %.4f", step, loss.item())
    except Exception:
        log.exception("step %d failed", step)
        sys.exit(1)
    log.info("finished")


if __name__ == "__main__":
    main()
