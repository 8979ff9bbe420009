"""Tiny transformer LM on random tokens, DDP; meant to run for a long time."""
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s | %(message)s")
log = logging.getLogger(f"lm.rank{rank}")


class TinyLM(nn.Module):
    def __init__(self, vocab=256, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 4, 64, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(d, vocab)

    def forward(self, x):
        return self.head(self.enc(self.emb(x)))


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=12))
    torch.manual_seed(0)
    model = DDP(TinyLM())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    log.info("starting training for 2000 steps")
    for step in range(2000):
        tok = torch.randint(0, 256, (4, 33), generator=g)
        logits = model(tok[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 256), tok[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.02)
    log.info("done")


if __name__ == "__main__":
    main()
