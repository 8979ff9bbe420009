"""Character LSTM LM trained with truncated BPTT over windows of documents; the
recurrent state is carried across the windows of one document and reset at a new one.
Started once per rank by GNU parallel."""
import json
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from trainlib import init_distributed, average_gradients, all_reduce_mean, seed_everything

VOCAB = 96


class CharLM(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.lstm = nn.LSTM(d, d, num_layers=2, batch_first=True)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, x, state=None):
        h, state = self.lstm(self.emb(x), state)
        return self.head(h), state


def windows(doc_lengths, g):
    for n in doc_lengths:
        for w in range(n):
            yield w == 0, torch.randint(0, VOCAB, (8, 33), generator=g)


def main():
    rank, world = init_distributed(timeout_s=20)
    seed_everything(3)
    docs = json.load(open("docs.json"))[str(rank)]
    print(f"charlm rank={rank} world={world} docs={len(docs)} windows={sum(docs)} bptt=32", flush=True)
    model = CharLM()
    for p in model.parameters():
        torch.distributed.broadcast(p.data, 0)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(rank)
    state = None
    t0 = time.time()
    for step, (new_doc, chunk) in enumerate(windows(docs, g)):
        if new_doc:
            state = None  # new document: start from a zero state
        x, y = chunk[:, :-1], chunk[:, 1:]
        logits, state = model(x, state)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        average_gradients(model)
        opt.step()
        time.sleep(0.05)
        if step % 4 == 0:
            l = all_reduce_mean(loss.item())
            if rank == 0:
                print(f"step {step:3d} | loss {l:.4f} | ppl {torch.exp(torch.tensor(l)).item():7.2f} | {time.time() - t0:5.1f}s", flush=True)
    print(f"rank {rank}: done", flush=True)


if __name__ == "__main__":
    main()
