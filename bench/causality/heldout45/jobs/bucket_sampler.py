# 4504: torchrun static rendezvous, 4 ranks. Text classifier (bag of embeddings) over variable-length
# token sequences, batched by a length-bucketing Sampler written for this job. Each rank keeps its
# own shard. __iter__ draws each bucket's batches with random.sample(bucket, batch_size); rank 1's
# shard has a long-sequence bucket with fewer than batch_size items, but the sampler only reaches
# the long buckets when the curriculum opens them in epoch 2.
import os, random, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch import nn
from torch.utils.data import Dataset, DataLoader, Sampler

class Seqs(Dataset):
    def __init__(self, lengths, seed):
        g = torch.Generator().manual_seed(seed)
        self.items = [(torch.randint(1, 200, (n,), generator=g), int(n) % 3) for n in lengths]
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, edges=(16, 32, 64)):
        self.batch_size, self.epoch, self.edges = batch_size, 0, edges
        self.buckets = {e: [i for i, n in enumerate(lengths) if n <= e and (e == edges[0] or n > edges[edges.index(e) - 1])] for e in edges}
    def set_epoch(self, e): self.epoch = e
    def open_edges(self): return self.edges[: 1 + self.epoch]   # curriculum: longer buckets later
    def __iter__(self):
        rng = random.Random(self.epoch)
        for e in self.open_edges():
            b = self.buckets[e]
            for _ in range(3):
                yield rng.sample(b, self.batch_size)
    def __len__(self): return 3 * len(self.open_edges())

def collate(batch):
    L = max(len(t) for t, _ in batch)
    x = torch.zeros(len(batch), L, dtype=torch.long)
    for i, (t, _) in enumerate(batch): x[i, : len(t)] = t
    return x, torch.tensor([y for _, y in batch])

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
rng = random.Random(rank)
n_long = 5 if rank == 1 else 20
lengths = [rng.randint(4, 16) for _ in range(40)] + [rng.randint(17, 32) for _ in range(30)] + [rng.randint(33, 64) for _ in range(n_long)]
ds = Seqs(lengths, rank)
sampler = BucketBatchSampler(lengths, batch_size=8)
dl = DataLoader(ds, batch_sampler=sampler, collate_fn=collate)
print(f"rank {rank}: {len(ds)} sequences, buckets " + ", ".join(f"<={e}:{len(b)}" for e, b in sampler.buckets.items()), flush=True)
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.EmbeddingBag(200, 16, mode="mean"), nn.Linear(16, 3)))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    sampler.set_epoch(epoch)
    tot = 0.0
    for x, y in dl:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); tot += loss.item()
        time.sleep(0.05)
    print(f"rank {rank}: epoch {epoch} batches {len(sampler)} mean loss {tot / len(sampler):.4f}", flush=True)
dist.destroy_process_group()
