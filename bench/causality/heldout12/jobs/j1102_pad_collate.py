"""Token classification on jsonl shards with a hand-written padding collate."""
import json
import os
import socket
import sys
import time
import logging
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

RANK = int(os.environ["RANK"])


class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = RANK
        record.host = socket.gethostname()
        return True


h = logging.StreamHandler(sys.stdout)
h.addFilter(RankFilter())
h.setFormatter(logging.Formatter(
    'ts=%(asctime)s level=%(levelname)s host=%(host)s rank=%(rank)s logger=%(name)s msg="%(message)s"'))
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("tagger")


class JsonlDataset(torch.utils.data.Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(l) for l in f]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def pad_collate(batch, pad_id=0):
    width = max(len(s["ids"]) for s in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    tags = torch.full((len(batch), width), -100, dtype=torch.long)
    for i, s in enumerate(batch):
        ids[i, :len(s["ids"])] = torch.tensor(s["ids"])
        tags[i, :len(s["tags"])] = torch.tensor(s["tags"])
    return ids, tags


class Tagger(nn.Module):
    def __init__(self, vocab=200, d=32, n_tags=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, n_tags)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    ds = JsonlDataset(f"data/tagged-{rank}.jsonl")
    log.info(f"loaded {len(ds)} sentences")
    loader = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=False, collate_fn=pad_collate)
    model = DDP(Tagger())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for epoch in range(2):
        for ids, tags in loader:
            logits = model(ids)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            time.sleep(0.05)
            if step % 5 == 0:
                log.info(f"epoch={epoch} step={step} loss={loss.item():.4f}")
    log.info("done")


if __name__ == "__main__":
    main()
