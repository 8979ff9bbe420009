#!/usr/bin/env python3
"""Deterministic inputs for the language-server benchmark (bench/lsp/run.py):

- python_script(lines, seed): one realistic PyTorch training script of exactly `lines` lines
  (models, attention, checkpointed blocks, datasets, collate functions, schedules, checkpoint
  save/load, evaluation, a training loop with AMP and gradient accumulation, distributed set-up,
  main()). A few lines are patterns Denpex flags: `checkpoint(..., use_reentrant=True)`,
  `torch.load(path)` without `weights_only`, `torch.cuda.amp.autocast`, `zero_grad(set_to_none=False)`,
  `DataLoader` without workers, a loss accumulated as a tensor.
- training_log(template, lines, seed): a `lines`-line torchrun log built from a real-shaped one
  (examples/oom-cascade/train.log): its start-up lines, then `[rank0]:step N | loss ...` lines with
  changing numbers (and an eval/checkpoint line now and then), then its 8-rank failure (the OOM
  on rank 5, the NCCL watchdog timeouts on the other ranks, torchrun's summary).

Usage: gen.py DIR  writes DIR/train.py and DIR/train.log (the benchmark calls the functions).
"""
import math
import os
import random
import re
import sys

HEADER = '''"""Training script for a decoder-only language model (generated for the Denpex LSP benchmark)."""
import argparse
import json
import math
import os
import time
from dataclasses import dataclass, field

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader, Dataset, DistributedSampler

'''

# Each block is formatted with i (the cycle number) and the random/flag fields below.
BLOCKS = [
'''
@dataclass
class ModelConfig{i}:
    vocab_size: int = {vocab}
    dim: int = {dim}
    n_layers: int = {layers}
    n_heads: int = {heads}
    max_seq_len: int = {seq}
    dropout: float = {drop}
    tie_embeddings: bool = True
    extra: dict = field(default_factory=dict)

    @property
    def head_dim(self):
        return self.dim // self.n_heads
''',
'''
class Attention{i}(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.dim // cfg.n_heads
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim, bias=False)
        self.proj = nn.Linear(cfg.dim, cfg.dim, bias=False)
        self.drop = nn.Dropout(cfg.dropout)
        self.scale = 1.0 / math.sqrt(self.head_dim)

    def forward(self, x, mask=None):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=-1)
        q = q.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * self.scale
        if mask is not None:
            att = att.masked_fill(mask[:, :, :t, :t] == 0, float("-inf"))
        att = self.drop(torch.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)
''',
'''
class FeedForward{i}(nn.Module):
    def __init__(self, dim, hidden=None, dropout=0.0):
        super().__init__()
        hidden = hidden or 4 * dim
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(self.w2(F.silu(self.w1(x)) * self.w3(x)))
''',
'''
class Block{i}(nn.Module):
    def __init__(self, cfg, grad_ckpt=True):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.dim)
        self.attn = Attention{i}(cfg)
        self.ln2 = nn.LayerNorm(cfg.dim)
        self.mlp = FeedForward{i}(cfg.dim, dropout=cfg.dropout)
        self.grad_ckpt = grad_ckpt

    def _attn(self, x, mask):
        return self.attn(self.ln1(x), mask)

    def _mlp(self, x):
        return self.mlp(self.ln2(x))

    def forward(self, x, mask=None):
        if self.grad_ckpt and self.training:
            x = x + checkpoint(self._attn, x, mask, use_reentrant={reentrant})
            x = x + checkpoint(self._mlp, x, use_reentrant=False)
        else:
            x = x + self._attn(x, mask)
            x = x + self._mlp(x)
        return x
''',
'''
class Transformer{i}(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.pos = nn.Embedding(cfg.max_seq_len, cfg.dim)
        self.blocks = nn.ModuleList([Block{i}(cfg) for _ in range(cfg.n_layers)])
        self.ln_f = nn.LayerNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)
        if cfg.tie_embeddings:
            self.head.weight = self.tok.weight
        mask = torch.tril(torch.ones(cfg.max_seq_len, cfg.max_seq_len))
        self.register_buffer("mask", mask.view(1, 1, cfg.max_seq_len, cfg.max_seq_len), persistent=False)
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        b, t = idx.shape
        pos = torch.arange(t, device=idx.device)
        x = self.tok(idx) + self.pos(pos)[None]
        for block in self.blocks:
            x = block(x, self.mask)
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-100)
        return logits, loss

    def num_params(self):
        return sum(p.numel() for p in self.parameters() if p.requires_grad)
''',
'''
class TokenDataset{i}(Dataset):
    def __init__(self, path, seq_len={seq}, split="train"):
        self.path = path
        self.seq_len = seq_len
        self.split = split
        with open(os.path.join(path, split + ".json")) as f:
            self.index = json.load(f)
        self.tokens = torch.load(os.path.join(path, split + ".pt"), weights_only=True)

    def __len__(self):
        return max(0, (len(self.tokens) - 1) // self.seq_len)

    def __getitem__(self, i):
        start = i * self.seq_len
        chunk = self.tokens[start:start + self.seq_len + 1]
        return {{"input_ids": chunk[:-1].long(), "labels": chunk[1:].long()}}
''',
'''
def collate_{i}(batch, pad_id=0):
    width = max(len(s["input_ids"]) for s in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    for row, sample in enumerate(batch):
        n = len(sample["input_ids"])
        ids[row, :n] = sample["input_ids"]
        labels[row, :n] = sample["labels"]
    return ids, labels


def make_loader_{i}(dataset, batch_size={bs}, distributed=False):
    sampler = DistributedSampler(dataset) if distributed else None
    return DataLoader(dataset, batch_size=batch_size, shuffle=sampler is None, sampler=sampler{workers},
                      collate_fn=collate_{i}, drop_last=True)
''',
'''
def lr_at_{i}(step, warmup={warmup}, total={total}, base_lr={lr}, min_lr={minlr}):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    if step >= total:
        return min_lr
    progress = (step - warmup) / max(1, total - warmup)
    return min_lr + 0.5 * (base_lr - min_lr) * (1.0 + math.cos(math.pi * progress))


def set_lr_{i}(optimizer, lr):
    for group in optimizer.param_groups:
        group["lr"] = lr
''',
'''
def save_checkpoint_{i}(path, model, optimizer, step, scaler=None):
    state = {{
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "step": step,
        "scaler": scaler.state_dict() if scaler is not None else None,
    }}
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_checkpoint_{i}(path, model, optimizer=None, scaler=None):
    state = torch.load(path{weights_only})
    missing, unexpected = model.load_state_dict(state["model"], strict=False)
    if missing or unexpected:
        print("checkpoint %s: %d missing, %d unexpected keys" % (path, len(missing), len(unexpected)))
    if optimizer is not None and "optimizer" in state:
        optimizer.load_state_dict(state["optimizer"])
    if scaler is not None and state.get("scaler"):
        scaler.load_state_dict(state["scaler"])
    return state.get("step", 0)
''',
'''
@torch.no_grad()
def evaluate_{i}(model, loader, device, max_batches={evb}):
    model.eval()
    total, count = 0.0, 0
    for n, (ids, labels) in enumerate(loader):
        if n >= max_batches:
            break
        ids, labels = ids.to(device, non_blocking=True), labels.to(device, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            _, loss = model(ids, labels)
        total += loss.item()
        count += 1
    model.train()
    return total / max(1, count)
''',
'''
class AverageMeter{i}:
    def __init__(self, name, window=100):
        self.name = name
        self.window = window
        self.values = []

    def update(self, value):
        self.values.append(float(value))
        if len(self.values) > self.window:
            self.values.pop(0)

    @property
    def avg(self):
        return sum(self.values) / max(1, len(self.values))

    def __repr__(self):
        return "%s=%.4f" % (self.name, self.avg)
''',
'''
def train_one_epoch_{i}(model, loader, optimizer, scaler, device, epoch, accum_steps={accum}, log_every={logevery}):
    model.train()
    meter = AverageMeter{i}("loss")
    running = 0.0
    optimizer.zero_grad(set_to_none={set_to_none})
    t0 = time.time()
    for step, (ids, labels) in enumerate(loader):
        ids = ids.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        with {autocast}:
            _, loss = model(ids, labels)
            loss = loss / accum_steps
        scaler.scale(loss).backward()
        running += loss{item}
        if (step + 1) % accum_steps == 0:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
            meter.update(loss.item() * accum_steps)
        if step % log_every == 0 and is_main_{i}():
            dt = time.time() - t0
            print("epoch %d step %d | %r | %.1f ms/step" % (epoch, step, meter, 1000 * dt / max(1, step)))
    return running
''',
'''
def setup_distributed_{i}():
    if "RANK" not in os.environ:
        return 0, 1, torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    world = dist.get_world_size()
    local = int(os.environ.get("LOCAL_RANK", 0))
    torch.cuda.set_device(local)
    return rank, world, torch.device("cuda", local)


def is_main_{i}():
    return not dist.is_initialized() or dist.get_rank() == 0


def cleanup_{i}():
    if dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()
''',
]

MAIN = '''

def parse_args():
    p = argparse.ArgumentParser(description="train a decoder-only LM")
    p.add_argument("--data", default="data/")
    p.add_argument("--out", default="checkpoints/")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--resume", default="")
    p.add_argument("--compile", action="store_true")
    return p.parse_args()


def main():
    args = parse_args()
    rank, world, device = setup_distributed_0()
    torch.manual_seed(1234 + rank)
    cfg = ModelConfig0()
    model = Transformer0(cfg).to(device)
    if args.compile:
        model = torch.compile(model)
    if world > 1:
        model = DDP(model, device_ids=[device.index])
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    scaler = torch.amp.GradScaler("cuda")
    start = 0
    if args.resume:
        start = load_checkpoint_0(args.resume, model, optimizer, scaler)
    train_loader = make_loader_0(TokenDataset0(args.data), args.batch_size, distributed=world > 1)
    val_loader = make_loader_0(TokenDataset0(args.data, split="val"), args.batch_size, distributed=world > 1)
    for epoch in range(args.epochs):
        set_lr_0(optimizer, lr_at_0(start + epoch * len(train_loader)))
        train_one_epoch_0(model, train_loader, optimizer, scaler, device, epoch)
        val = evaluate_0(model, val_loader, device)
        if is_main_0():
            print("epoch %d: val loss %.4f" % (epoch, val))
            save_checkpoint_0(os.path.join(args.out, "epoch_%d.pt" % epoch), model, optimizer, epoch, scaler)
    cleanup_0()


if __name__ == "__main__":
    main()
'''


def python_script(lines=5000, seed=1):
    rng = random.Random(seed)
    parts = [HEADER]
    count = HEADER.count("\n")
    budget = lines - MAIN.count("\n")
    i = 0
    while True:
        for k, block in enumerate(BLOCKS):
            text = block.format(
                i=i, vocab=rng.choice([32000, 50257, 65536]), dim=rng.choice([512, 768, 1024, 2048]),
                layers=rng.choice([12, 24, 32]), heads=rng.choice([8, 12, 16]), seq=rng.choice([1024, 2048, 4096]),
                drop=rng.choice([0.0, 0.1]), bs=rng.choice([8, 16, 32]), warmup=rng.choice([500, 1000, 2000]),
                total=rng.choice([100000, 200000]), lr=rng.choice(["3e-4", "6e-4", "1e-3"]), minlr=rng.choice(["3e-5", "6e-5"]),
                evb=rng.choice([50, 100, 200]), accum=rng.choice([1, 2, 4, 8]), logevery=rng.choice([10, 50, 100]),
                # The flagged patterns: a few of each, at fixed cycles (deterministic, not random).
                reentrant="True" if i % 5 == 2 else "False",
                weights_only="" if i % 6 == 1 else ', map_location="cpu", weights_only=True',
                workers="" if i % 7 == 3 else ", num_workers=8, pin_memory=True",
                set_to_none="False" if i % 9 == 4 else "True",
                autocast='torch.cuda.amp.autocast(dtype=torch.float16)' if i % 8 == 5 else 'torch.autocast("cuda", dtype=torch.bfloat16)',
                item="" if i % 10 == 7 else ".item()")
            n = text.count("\n")
            if count + n > budget:
                # Pad to the exact size with a table of constants (valid Python, no findings).
                pad = ["\n"] + ["_SEEN_SHAPES_%d = (%d, %d)\n" % (j, rng.randrange(1, 64), rng.randrange(64, 4096))
                                for j in range(budget - count - 1)] if budget - count > 0 else []
                parts.extend(pad)
                parts.append(MAIN)
                out = "".join(parts)
                assert out.count("\n") == lines, (out.count("\n"), lines)
                return out
            parts.append(text)
            count += n
        i += 1


STEP_RE = re.compile(r"^\[rank0\]:step +(\d+) \|")


def training_log(template_path, lines=100000, seed=1):
    """Start-up lines of the template, rank-0 step lines up to `lines`, then the template's failure."""
    rng = random.Random(seed)
    with open(template_path) as f:
        tmpl = f.read().splitlines()
    first_step = next(i for i, l in enumerate(tmpl) if STEP_RE.match(l))
    last_step = first_step
    while STEP_RE.match(tmpl[last_step + 1]):  # the first run of step lines is the filler's model
        last_step += 1
    head = tmpl[:first_step]
    tail = tmpl[last_step + 1:]
    n_fill = lines - len(head) - len(tail)
    fill = []
    step = 0
    loss = 10.8
    toks = 41873
    while len(fill) < n_fill:
        step += 1
        loss = max(1.9, loss * 0.99995 - 0.00002 + rng.uniform(-0.004, 0.004))
        toks = max(38000, min(43000, toks + rng.randrange(-250, 251)))
        mem = 71.2 + rng.choice([0.0, 0.0, 0.0, 0.1, 0.2])
        lr = 3e-4 * min(1.0, step / 2000)
        if step % 1000 == 0 and len(fill) + 2 <= n_fill:
            fill.append("[rank0]:eval  %6d | val_loss %.4f | ppl %.2f" % (step, loss + 0.05, math.exp(loss + 0.05)))
            fill.append("[rank0]:saved checkpoint to /checkpoints/step_%06d.pt (1.21 GiB) in 3.4 s" % step)
            continue
        fill.append("[rank0]:step %5d | loss %.4f | lr %.2e | tokens/s %d | mem %.1f GiB" % (step, loss, lr, toks, mem))
    # The steps rank 0 still logs after rank 5 died continue the numbering (and the loss curve).
    out_tail = []
    for l in tail:
        if STEP_RE.match(l):
            step += 1
            l = "[rank0]:step %5d | loss %.4f | lr %.2e | tokens/s %d | mem 71.2 GiB" % (step, loss, lr, toks)
        out_tail.append(l)
    out = head + fill[:n_fill] + out_tail
    assert len(out) == lines, (len(out), lines)
    return "\n".join(out) + "\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench/out/lsp-inputs"
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "train.py"), "w") as f:
        f.write(python_script())
    with open(os.path.join(out, "train.log"), "w") as f:
        f.write(training_log(os.path.join(root, "examples", "oom-cascade", "train.log")))
    print("wrote %s/train.py and %s/train.log" % (out, out))


if __name__ == "__main__":
    main()
