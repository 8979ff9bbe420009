"""Token tagger (BiGRU) trained with hand-written gradient all_reduce.  Batches are padded
to the longest sequence in the batch; labels come padded to seq_len.  The metadata of the
next shard is prefetched during the epoch."""
import json
import logging
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record

from trainlib import init_distributed, average_gradients, all_reduce_mean, seed_everything

logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s.%(msecs)03d %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger("tagger")
PREFETCH_AT = 12


class Tagger(nn.Module):
    def __init__(self, vocab=500, d=48, n_tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.gru = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * d, n_tags)

    def forward(self, x):
        return self.out(self.gru(self.emb(x))[0])


def collate(items, seq_len):
    n = max(len(t) for t, _ in items)
    x = torch.zeros(len(items), n, dtype=torch.long)
    y = torch.zeros(len(items), n, dtype=torch.long)
    mask = torch.zeros(len(items), seq_len)
    for i, (t, l) in enumerate(items):
        x[i, :len(t)] = torch.tensor(t)
        y[i, :len(l)] = torch.tensor(l)
        mask[i, :len(l)] = 1
    return x, y, mask


def read_meta(path, retries=1):
    for attempt in range(retries + 1):
        txt = open(path).read()
        try:
            return json.loads(txt)
        except json.JSONDecodeError:
            if attempt == retries:
                raise
            log.warning("%s not parseable yet (writer still busy?), retry %d/%d", path, attempt + 1, retries)
            time.sleep(0.3)


@record
def main():
    rank, world = init_distributed(timeout_s=20)
    seed_everything(4)
    meta = read_meta(f"meta/w{rank}-s0.json")
    seqs = json.load(open(f"meta/w{rank}-s0.tokens.json"))
    log.info("shard %d: %d sequences, seq_len %d", meta["shard"], len(seqs), meta["seq_len"])
    model = Tagger()
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bs = 16
    for step in range(len(seqs) // bs):
        x, y, mask = collate(seqs[step * bs:(step + 1) * bs], meta["seq_len"])
        logits = model(x)
        tok_loss = F.cross_entropy(logits.transpose(1, 2), y, reduction="none")
        mask = mask[:, :tok_loss.shape[1]]
        loss = (tok_loss * mask).sum() / mask.sum()
        opt.zero_grad()
        loss.backward()
        if step == PREFETCH_AT:
            nxt = read_meta(f"meta/w{rank}-s1.json")
            log.info("prefetched metadata of shard %d", nxt["shard"])
        average_gradients(model)
        opt.step()
        time.sleep(0.03)
        if step % 3 == 0:
            l = all_reduce_mean(loss.item())
            print(f"step {step} loss {l:.4f}", flush=True)
    log.info("epoch done")


if __name__ == "__main__":
    main()
