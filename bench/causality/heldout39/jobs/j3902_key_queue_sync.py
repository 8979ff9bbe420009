#!/usr/bin/env python3
"""MoCo-style contrastive encoder with a shared key queue, launched with torch.multiprocessing.spawn."""
import datetime, json, os, sys, tempfile, traceback
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn as nn, torch.nn.functional as F

WORLD = 4
CFG = {"queue": 256, "dim": 16, "key_sync": "all_gather", "steps": 40, "batch": 16}

def load_cfg(rank, cfgdir):
    # every worker reads its own local copy of the run config
    with open(os.path.join(cfgdir, f"cfg.{rank}.json")) as f:
        return json.load(f)

def worker(rank, cfgdir, port):
    try:
        train(rank, cfgdir, port)
    except Exception:
        print(f"rank {rank}: training failed", file=sys.stderr)
        traceback.print_exc()
        sys.stderr.flush()
        raise

def train(rank, cfgdir, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=datetime.timedelta(seconds=25))
    cfg = load_cfg(rank, cfgdir)
    print(f"rank {rank}: queue={cfg['queue']} dim={cfg['dim']} key_sync={cfg['key_sync']}", flush=True)
    torch.manual_seed(1)
    enc_q = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, cfg["dim"]))
    enc_k = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, cfg["dim"]))
    enc_k.load_state_dict(enc_q.state_dict())
    opt = torch.optim.SGD(enc_q.parameters(), lr=0.03, momentum=0.9)
    queue = F.normalize(torch.randn(cfg["queue"], cfg["dim"]), dim=1)
    ptr = 0
    g = torch.Generator().manual_seed(rank)
    for step in range(cfg["steps"]):
        x = torch.randn(cfg["batch"], 32, generator=g)
        q = F.normalize(enc_q(x + 0.1 * torch.randn_like(x)), dim=1)
        with torch.no_grad():
            k = F.normalize(enc_k(x + 0.1 * torch.randn_like(x)), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ queue.t()], 1) / 0.2
        loss = F.cross_entropy(logits, torch.zeros(x.shape[0], dtype=torch.long))
        opt.zero_grad(); loss.backward()
        for p in enc_q.parameters():
            dist.all_reduce(p.grad); p.grad /= WORLD
        opt.step()
        if step % 5 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        with torch.no_grad():
            for pk, pq in zip(enc_k.parameters(), enc_q.parameters()):
                pk.mul_(0.99).add_(pq, alpha=0.01)
            # enqueue keys from all ranks
            if cfg["key_sync"] == "all_gather":
                keys = [torch.empty_like(k) for _ in range(WORLD)]
                dist.all_gather(keys, k)
                keys = torch.cat(keys)
            else:  # older runs: rank-0 keys only
                keys = k.clone()
                dist.broadcast(keys, src=0)
            n = keys.shape[0]
            queue[ptr:ptr + n] = keys; ptr = (ptr + n) % cfg["queue"]
    dist.barrier()
    if rank == 0:
        print("done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    cfgdir = tempfile.mkdtemp(prefix="moco_cfg_")
    for r in range(WORLD):
        c = dict(CFG)
        if r == 1:
            c["key_sync"] = "broadcast"   # stale copy from an older run
        with open(os.path.join(cfgdir, f"cfg.{r}.json"), "w") as f:
            json.dump(c, f)
    mp.spawn(worker, args=(cfgdir, int(sys.argv[1]) if len(sys.argv) > 1 else 29623), nprocs=WORLD)
