import logging
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients

LANGS = ["de", "fr", "es"]


class GlogFormatter(logging.Formatter):
    def format(self, record):
        t = time.localtime(record.created)
        us = int((record.created % 1) * 1e6)
        head = (f"{record.levelname[0]}{t.tm_mon:02d}{t.tm_mday:02d} "
                f"{time.strftime('%H:%M:%S', t)}.{us:06d} {record.process:>7d} "
                f"{os.path.basename(record.pathname)}:{record.lineno}] ")
        msg = head + record.getMessage()
        if record.exc_info:
            msg += "\n" + self.formatException(record.exc_info)
        return msg


log = logging.getLogger("mt")


def load_vocab(lang):
    vocab = {}
    with open(f"vocab/vocab.{lang}.txt", encoding="utf-8") as f:
        for line in f:
            tok, cnt = line.rstrip("\n").split("\t")
            vocab[tok] = int(cnt)
    return vocab


class TinyEncoder(nn.Module):
    def __init__(self, vocab=512, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.cls = nn.Linear(d, 3)

    def forward(self, x):
        return self.cls(self.emb(x))


def main():
    h = logging.StreamHandler(sys.stderr)
    h.setFormatter(GlogFormatter())
    logging.basicConfig(level=logging.INFO, handlers=[h])
    rank, world = init_distributed(timeout_s=10)
    lang = LANGS[rank]
    log.info("worker up: rank=%d world=%d lang=%s", rank, world, lang)
    model = TinyEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    try:
        for step in range(30):
            if step == 12:
                log.info("refreshing subword vocabulary")
                vocab = load_vocab(lang)
                log.info("vocabulary size %d", len(vocab))
            x = torch.randint(0, 512, (16, 20))
            y = torch.randint(0, 3, (16,))
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            time.sleep(0.1)
            if step % 4 == 0:
                log.info("step %d loss %.4f", step, loss.item())
    except RuntimeError:
        log.warning("collective failed at step %d, writing emergency checkpoint", step)
        torch.save({"model": model.state_dict(), "step": step},
                   os.path.join("ckpt", "emergency", f"{lang}-step{step}.pt"))
        raise
    log.info("finished")


if __name__ == "__main__":
    main()
