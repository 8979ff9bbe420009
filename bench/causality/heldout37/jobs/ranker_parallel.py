import os, json, time, datetime, threading
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

class MetricsWriter:
    """append-only jsonl metrics file with size based rotation"""
    def __init__(self, path, max_bytes=2048):
        self.path, self.max_bytes = path, max_bytes
        self._lock = threading.Lock()
        self._f = open(path, "w")
    def _rotate(self):
        with self._lock:
            self._f.close()
            os.replace(self.path, self.path + ".1")
            self._f = open(self.path, "w")
    def write(self, rec):
        with self._lock:
            self._f.write(json.dumps(rec) + "\n"); self._f.flush()
            if self._f.tell() > self.max_bytes:
                self._rotate()

class Ranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.EmbeddingBag(5000, 32, mode="mean")
        self.d = nn.EmbeddingBag(5000, 32, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, q, d):
        return self.mlp(torch.cat([self.q(q), self.d(d)], 1)).squeeze(1)

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(Ranker())
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    metrics = MetricsWriter(f"/tmp/helper37/metrics.jsonl") if rank == 0 else None
    for step in range(1, 31):
        q = torch.randint(0, 5000, (64, 6), generator=g); d = torch.randint(0, 5000, (64, 20), generator=g)
        y = torch.randint(0, 2, (64,), generator=g).float()
        loss = nn.functional.binary_cross_entropy_with_logits(model(q, d), y)
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"step {step:3d} | loss {loss.item():.4f}", flush=True)
        if metrics is not None:
            metrics.write({"step": step, "loss": round(loss.item(), 5), "time": time.time(), "lr": 0.05, "world": world})
        time.sleep(0.1)
    print("training complete", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
