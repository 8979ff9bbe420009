"""Word-level LSTM LM, DDP, launched with the deprecated torch.distributed.launch --use_env.
Each epoch a rank reads a new shard (rank + epoch*world) and tokenizes it into a local cache
under cache/, guarded by a per-shard lock file so that two jobs on the node do not build the
same cache at once (like datasets' FileLock)."""
import fcntl
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

VOCAB, SEQ, BS = 800, 24, 8


class LSTMLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 48)
        self.rnn = nn.LSTM(48, 64, batch_first=True)
        self.out = nn.Linear(64, VOCAB)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def load_shard(idx):
    path = f"cache/shard-{idx:05d}.pt"
    if os.path.exists(path):
        return torch.load(path)
    lock = open(f"cache/shard-{idx:05d}.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)          # wait for any other builder of this shard
    try:
        g = torch.Generator().manual_seed(idx)
        toks = torch.randint(0, VOCAB, (40 * BS, SEQ + 1), generator=g)
        torch.save(toks, path)
        return toks
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def main():
    torch.set_num_threads(1)
    local_rank = int(os.environ["LOCAL_RANK"])
    rank, world = init_distributed(timeout_s=20)
    seed_everything(0)
    os.makedirs("cache", exist_ok=True)
    model = DDP(LSTMLM())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    print(f"rank {rank}/{world} local_rank {local_rank} pid {os.getpid()}: model ready", flush=True)
    for epoch in range(3):
        idx = rank + epoch * world
        print(f"rank {rank}: epoch {epoch} shard {idx:05d}: loading tokens", flush=True)
        toks = load_shard(idx)
        print(f"rank {rank}: epoch {epoch} shard {idx:05d}: {toks.shape[0]} sequences", flush=True)
        for step in range(12):
            b = toks[step * BS:(step + 1) * BS]
            logits = model(b[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), b[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.05)
            if step % 4 == 3:
                print(f"rank {rank}: epoch {epoch} step {step + 1}/12 loss {loss.item():.3f} "
                      f"ppl {loss.exp().item():.1f}", flush=True)
    print(f"rank {rank}: training finished", flush=True)


if __name__ == "__main__":
    main()
