import logging
import os
import time

import torch
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, average_gradients


def load_site(rank):
    rows = [line.split() for line in open(f"readings/site{rank}.txt")]
    x = torch.tensor([[float(v) for v in r[:-1]] for r in rows], dtype=torch.float32)
    y = torch.tensor([int(r[-1]) for r in rows])
    return x, y


def main():
    rank, world = init_distributed(timeout_s=10)
    logging.basicConfig(level=logging.INFO)
    log = logging.getLogger(f"trainer.rank{rank}")
    x, y = load_site(rank)
    log.info("loaded %d readings, feature range [%.3g, %.3g]", len(y), x.min().item(), x.max().item())
    model = TinyMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for epoch in range(2):
        for i in range(0, len(y), 24):
            out = model(x[i:i + 24])
            loss = F.cross_entropy(out, y[i:i + 24])
            assert torch.isfinite(loss), f"non-finite loss ({loss.item()}) at step {step}"
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            step += 1
            time.sleep(0.12)
            if step % 3 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
    log.info("done")


if __name__ == "__main__":
    main()
