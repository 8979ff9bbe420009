#!/usr/bin/env python3
"""Token-bag text classifier with a background prefetch thread per rank and a step watchdog."""
import datetime, faulthandler, os, queue, sys, threading, time
import torch, torch.distributed as dist, torch.nn as nn

VOCAB, STEPS, BATCH = 2000, 30, 32

def records(rank):
    g = torch.Generator().manual_seed(rank)
    for i in range(10_000):
        n = int(torch.randint(5, 40, (1,), generator=g))
        toks = torch.randint(0, VOCAB, (n,), generator=g).tolist()
        if rank == 0 and i == 7 * BATCH + 11:
            toks = None  # record with an empty payload in part-00000
        yield toks, int(sum(toks) % 2) if toks is not None else None

def producer(rank, q):
    batch = []
    for toks, lab in records(rank):
        batch.append((torch.tensor(toks, dtype=torch.long), lab))
        if len(batch) == BATCH:
            offs = torch.tensor([0] + [len(t) for t, _ in batch[:-1]]).cumsum(0)
            q.put((torch.cat([t for t, _ in batch]), offs, torch.tensor([l for _, l in batch])))
            batch = []

def main():
    faulthandler.enable()
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank = dist.get_rank()
    q = queue.Queue(maxsize=4)
    threading.Thread(target=producer, args=(rank, q), name=f"prefetch-{rank}", daemon=True).start()
    torch.manual_seed(0)
    model = nn.ModuleDict({"emb": nn.EmbeddingBag(VOCAB, 32, mode="mean"), "head": nn.Linear(32, 2)})
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for step in range(STEPS):
        # watchdog: dump all thread stacks if a step takes longer than 15 s
        faulthandler.dump_traceback_later(15, repeat=False, file=sys.stderr)
        toks, offs, y = q.get()
        emb = model["emb"](toks, offs)
        loss = nn.functional.cross_entropy(model["head"](emb), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= dist.get_world_size()
        opt.step()
        faulthandler.cancel_dump_traceback_later()
        if step % 3 == 0:
            print(f"step {step}/{STEPS} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
