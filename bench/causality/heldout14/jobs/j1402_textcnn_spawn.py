"""TextCNN intent classifier over pre-tokenized shards, launched with torch.multiprocessing.spawn.
Each rank shows its own tqdm bar."""
import argparse
import datetime
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm

VOCAB_SIZE = 30000   # size of the tokenizer vocab this model was configured for
N_INTENTS = 12


class TextCNN(nn.Module):
    def __init__(self, vocab=VOCAB_SIZE, dim=48, n_cls=N_INTENTS):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(dim, 32, k) for k in (3, 4, 5)])
        self.out = nn.Linear(96, n_cls)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        h = torch.cat([F.relu(c(h)).max(dim=2).values for c in self.convs], dim=1)
        return self.out(h)


def worker(rank, world, port, epochs):
    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    shard = torch.load(f"tokens/intents-train-{rank}.pt")
    ids, labels = shard["input_ids"], shard["labels"]
    if rank == 0:
        print(f"loaded {ids.shape[0]} examples/rank, seq_len {ids.shape[1]}, vocab {VOCAB_SIZE}", flush=True)
    model = DDP(TextCNN())
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
    bs = 32
    steps = ids.shape[0] // bs
    for epoch in range(epochs):
        bar = tqdm(range(steps), desc=f"[rank {rank}] epoch {epoch}", position=rank, leave=True,
                   dynamic_ncols=False, ncols=90)
        correct = 0
        for step in bar:
            x = ids[step * bs:(step + 1) * bs]
            y = labels[step * bs:(step + 1) * bs]
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
            bar.set_postfix(loss=f"{loss.item():.3f}")
            time.sleep(0.04)
        bar.close()
        acc = torch.tensor([correct / (steps * bs)])
        dist.all_reduce(acc)
        if rank == 0:
            print(f"epoch {epoch}: train acc {acc.item() / world:.3f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--port", type=int, default=29942)
    ap.add_argument("--epochs", type=int, default=3)
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world, a.port, a.epochs), nprocs=a.world, join=True)
