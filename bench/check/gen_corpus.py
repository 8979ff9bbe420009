#!/usr/bin/env python3
"""Writes a synthetic corpus of PyTorch training code: N files of ~1000 lines (default 1000 files,
about 1M lines) mixing the patterns denpex checks for with ordinary code, deterministically."""
import os
import random
import sys

HEADER = '''import functools
import math
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader
from torch.nn.utils.rnn import pad_sequence
'''

BLOCKS = [
'''
class Block{i}(nn.Module):
    def __init__(self, dim={d}):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * 4)
        self.fc2 = nn.Linear(dim * 4, dim)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        h = self.norm(x)
        h = self.fc2(self.drop(F.gelu(self.fc1(h))))
        return x + checkpoint(self._inner, h{reentrant})

    def _inner(self, h):
        return h * torch.sigmoid(h)
''',
'''
def collate_{i}(batch):
    seqs = [torch.tensor(s["ids"]) for s in batch]
    labels = torch.tensor([s["label"] for s in batch])
    width = max(len(s) for s in seqs)
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded[:, :width], labels
''',
'''
def train_epoch_{i}(model, loader, optimizer, scaler, device="cuda"):
    model.train()
    total_loss = 0.0
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad(set_to_none={stn})
        with torch.cuda.amp.autocast(dtype=torch.float16):
            out = model(x)
            loss = F.cross_entropy(out, y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        total_loss += loss{item}
        if step % 100 == 0:
            print("step", step, "loss", float(loss))
    return total_loss / max(1, len(loader))
''',
'''
def evaluate_{i}(model, loader, device="cuda"):
    model.eval()
    correct = 0
    seen = 0
    {ctx}
        for x, y in loader:
            logits = model(x.to(device))
            correct += (logits.argmax(-1) == y.to(device)).sum().item()
            seen += y.numel()
    model.train()
    return correct / max(1, seen)
''',
'''
def load_{i}(path, model):
    state = torch.load(path, map_location="cpu"{wo})
    missing, unexpected = model.load_state_dict(state["model"], strict=False)
    if missing:
        print("missing keys:", len(missing))
    return state.get("step", 0)
''',
'''
def make_loader_{i}(dataset, batch_size={bs}):
    return DataLoader(dataset, batch_size=batch_size, shuffle=True{nw}, collate_fn=collate_{i})
''',
'''
def schedule_{i}(step, warmup=1000, total=100000, base_lr=3e-4):
    if step < warmup:
        return base_lr * step / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * base_lr * (1.0 + math.cos(math.pi * progress))
''',
'''
# A helper that shares a name with nothing in torch; strings mention torch.load(x) only as text.
def describe_{i}(cfg):
    lines = ["model: %s" % cfg.get("name", "?"), "note: call torch.load(path) with weights_only"]
    for k, v in sorted(cfg.items()):
        lines.append("%s = %r" % (k, v))
    return "\\n".join(lines)
''',
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench/out/corpus"
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    target = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    rng = random.Random(42)
    os.makedirs(out, exist_ok=True)
    total = 0
    for n in range(files):
        parts = [HEADER]
        lines = HEADER.count("\n")
        i = 0
        while lines < target:
            b = BLOCKS[i % len(BLOCKS)].format(
                i=i, d=rng.choice([256, 512, 768]),
                reentrant=rng.choice(["", ", use_reentrant=False", ", use_reentrant=True"]),
                stn=rng.choice(["True", "False"]), item=rng.choice(["", ".item()"]),
                ctx=rng.choice(["with torch.no_grad():", "if True:"]),
                wo=rng.choice(["", ", weights_only=True"]), bs=rng.choice([16, 32, 64]),
                nw=rng.choice(["", ", num_workers=8"]))
            parts.append(b)
            lines += b.count("\n")
            i += 1
        text = "".join(parts)
        total += text.count("\n")
        with open(os.path.join(out, "train_%04d.py" % n), "w") as f:
            f.write(text)
    print("wrote %d files, %d lines to %s" % (files, total, out))


if __name__ == "__main__":
    main()
