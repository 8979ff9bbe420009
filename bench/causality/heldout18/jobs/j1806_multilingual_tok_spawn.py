"""Multilingual text classifier (EmbeddingBag), mp.spawn, DDP.

Each rank tokenizes its own shard on the fly with the native tokenizer.  A shard's header
names the tokenizer model it was prepared for; when it differs from the current one, the
rank closes the tokenizer and loads the right one.
"""
import argparse
import json
import os
import sys
import time
from datetime import timedelta

import torch
import torch.nn as nn
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

from nativetok import NativeTokenizer

VOCAB = 4000


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 32)
        self.fc = nn.Linear(32, 5)

    def forward(self, toks, offsets):
        return self.fc(self.emb(toks, offsets))


def worker(rank, world, port):
    def say(msg):
        print(f"{time.strftime('%H:%M:%S')} rank {rank} | {msg}", flush=True)

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(BagClassifier())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    lossf = nn.CrossEntropyLoss()
    tok = NativeTokenizer("spm-en-32k")
    say(f"tokenizer {tok.model}")
    for epoch in range(3):
        path = f"shards/e{epoch}-r{rank}.jsonl"
        lines = open(path).read().splitlines()
        head = json.loads(lines[0])
        if head["tokenizer"] != tok.model:
            say(f"{path}: prepared for {head['tokenizer']}, switching tokenizer")
            tok.close()
            tok = NativeTokenizer(head["tokenizer"])
        rows = [json.loads(l) for l in lines[1:]]
        say(f"epoch {epoch}: {len(rows)} rows from {path}")
        for step in range(len(rows) // 8):
            batch = rows[step * 8:(step + 1) * 8]
            toks = [torch.tensor(tok.encode(r["text"], VOCAB)[:16]) for r in batch]
            offs = torch.tensor([0] + [len(t) for t in toks[:-1]]).cumsum(0)
            logits = model(torch.cat(toks), offs)
            loss = lossf(logits, torch.tensor([r["label"] for r in batch]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.05)
            if step % 5 == 0:
                say(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    dist.barrier()
    say("done")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=30306)
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world, a.port), nprocs=a.world)
    print("all workers finished")
