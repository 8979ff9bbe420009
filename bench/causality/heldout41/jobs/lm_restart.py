# 4102: tiny bag-of-embeddings LM; each rank switches to its second shard at step 9
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

D = "/tmp/helper41/shards"

def load_shard(rank, k):
    return torch.load(f"{D}/tok-r{rank}-s{k}.pt")["ids"]

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    restart = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    print(f"[rank{rank}] init ok (restart_count={restart})", flush=True)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.EmbeddingBag(500, 32), nn.Linear(32, 500)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ids = load_shard(rank, 0)
    for step in range(1, 31):
        if step == 9:
            ids = load_shard(rank, 1)
            print(f"[rank{rank}] switched to shard s1 ({ids.shape[0]} rows)", flush=True)
        row = ids[(step * 4) % ids.shape[0]: (step * 4) % ids.shape[0] + 4]
        logits = model(row[:, :-1])
        loss = nn.functional.cross_entropy(logits, row[:, -1])
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0:
            print(f"[rank{rank}] step {step} loss {loss.item():.3f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
