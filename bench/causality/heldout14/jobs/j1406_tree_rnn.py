"""Recursive (tree-structured) sentiment encoder over binarized constituency parses, DDP.
Parses come one per line as bracketed strings, e.g. "2\t((12 7) (40 (3 9)))"."""
import json
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

import trainlib


def parse_tree(s):
    """'(a (b c))' -> [a, [b, c]], with an explicit stack (no recursion)."""
    stack = [[]]
    for tok in s.replace("(", " ( ").replace(")", " ) ").split():
        if tok == "(":
            stack.append([])
        elif tok == ")":
            node = stack.pop()
            stack[-1].append(node)
        else:
            stack[-1].append(int(tok))
    return stack[0][0]


class TreeEncoder(nn.Module):
    def __init__(self, vocab=500, d=32, n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.compose = nn.Linear(2 * d, d)
        self.cls = nn.Linear(d, n_cls)

    def encode(self, node):
        if isinstance(node, int):
            return self.emb.weight[node]
        left, right = node
        return torch.tanh(self.compose(torch.cat([self.encode(left), self.encode(right)])))

    def forward(self, trees):
        return self.cls(torch.stack([self.encode(t) for t in trees]))


def main():
    torch.set_num_threads(1)
    rank, world = trainlib.init_distributed(timeout_s=20)
    examples = []
    with open(f"parses/train.{rank}.txt") as f:
        for line in f:
            label, tree = line.rstrip("\n").split("\t")
            examples.append({"tree": parse_tree(tree), "label": int(label)})
    print(f"rank {rank}: {len(examples)} parsed sentences", flush=True)
    model = DDP(TreeEncoder())
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    bs = 16
    for epoch in range(2):
        t0 = time.time()
        for step in range(len(examples) // bs):
            batch = examples[step * bs:(step + 1) * bs]
            logits = model([e["tree"] for e in batch])
            y = torch.tensor([e["label"] for e in batch])
            loss = nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 5 == 0:
                print(f"rank {rank} epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        print(f"rank {rank} epoch {epoch} took {time.time() - t0:.1f}s", flush=True)
    dist.barrier()
    print(f"rank {rank}: finished", flush=True)


if __name__ == "__main__":
    main()
