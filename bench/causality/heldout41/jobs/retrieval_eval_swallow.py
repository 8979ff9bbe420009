# 4107: dual-encoder retrieval; rank 1 owns the validation queries and evaluates every 8 steps
# under torch.no_grad(); the eval is wrapped in a broad except that logs and carries on.
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

EVAL_RANK = 1

def recall_at_k(enc, queries, corpus, gold, k=5):
    with torch.no_grad():
        q = nn.functional.normalize(enc(queries), dim=1)
        c = nn.functional.normalize(enc(corpus), dim=1)
        top = (q @ c.T).topk(k, dim=1).indices
        return (top == gold[:, None]).any(1).float().mean().item()

def main():
    rank = int(os.environ["RANK"])
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] retr: %(message)s")
    log = logging.getLogger()
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    torch.manual_seed(0)
    enc = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 32))
    model = DDP(enc)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    if rank == EVAL_RANK:
        vg = torch.Generator().manual_seed(99)
        queries = torch.randn(12, 40, generator=vg)
        corpus = torch.randn(3, 40, generator=vg)   # corpus export kept only 3 passages
        gold = torch.randint(0, 3, (12,), generator=vg)
    for step in range(1, 41):
        a = torch.randn(16, 40, generator=g); b = a + 0.1 * torch.randn(16, 40, generator=g)
        za, zb = model(a), model(b)
        loss = nn.functional.cross_entropy(za @ zb.T, torch.arange(16))
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0:
            print(f"step {step} rank {rank} loss {loss.item():.4f}", flush=True)
        if step % 8 == 0:
            if rank == EVAL_RANK:
                try:
                    r5 = recall_at_k(enc, queries, corpus, gold)
                    print(f"step {step} recall@5 {r5:.3f}", flush=True)
                except Exception:
                    log.exception("validation failed at step %d, skipping", step)
                    continue
            dist.barrier()
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
