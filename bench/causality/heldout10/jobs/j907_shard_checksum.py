import hashlib
import json
import logging
import os
import sys
import time
import traceback

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients


class JsonFormatter(logging.Formatter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def format(self, record):
        d = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(record.created)) + f".{int(record.msecs):03d}",
            "level": record.levelname,
            "logger": record.name,
            "rank": self.rank,
            "msg": record.getMessage(),
        }
        if record.exc_info:
            d["exc_type"] = record.exc_info[0].__name__
            d["exc"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(d)


class DataIntegrityError(Exception):
    pass


log = logging.getLogger("lm.train")


class ShardReader:
    def __init__(self, rank, world, manifest="shards/MANIFEST.json"):
        self.manifest = json.load(open(manifest))
        files = sorted(self.manifest)
        self.files = files[rank::world]

    def verify(self, path):
        got = hashlib.sha256(open(path, "rb").read()).hexdigest()
        want = self.manifest[path]
        if got != want:
            raise DataIntegrityError(f"sha256 mismatch for {path}: manifest {want[:12]}..., file {got[:12]}...")

    def __iter__(self):
        for path in self.files:
            self.verify(path)
            log.info("opened shard %s", path)
            tokens = torch.load(path)
            for i in range(0, len(tokens), 8):
                yield tokens[i:i + 8]


class TinyLM(nn.Module):
    def __init__(self, vocab=1000, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, x):
        return self.out(self.emb(x))


def main():
    rank = int(os.environ["SLURM_PROCID"])
    h = logging.StreamHandler(sys.stdout)
    h.setFormatter(JsonFormatter(rank))
    logging.basicConfig(level=logging.INFO, handlers=[h])
    rank, world = init_distributed(timeout_s=10)
    log.info("job %s step %s: rank %d/%d on %s", os.environ.get("SLURM_JOB_ID"),
             os.environ.get("SLURM_STEP_ID"), rank, world, os.uname().nodename)
    model = TinyLM()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    try:
        for tok in ShardReader(rank, world):
            logits = model(tok[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tok[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
            step += 1
            time.sleep(0.1)
            if step % 4 == 0:
                log.info("step %d loss %.4f", step, loss.item())
    except Exception:
        log.exception("fatal error at step %d", step)
        raise SystemExit(1)
    log.info("done after %d steps", step)


if __name__ == "__main__":
    main()
