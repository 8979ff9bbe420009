import os, json, time, datetime, warnings
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

TOKENIZER = "bpe-8k-v2"
VOCAB = 8000

def load_shard(path):
    with open(os.path.join(path, "meta.json")) as f:
        meta = json.load(f)
    if meta["tokenizer"] != TOKENIZER or meta["vocab_size"] != VOCAB:
        raise ValueError(
            f"shard {os.path.basename(path)} was tokenized with {meta['tokenizer']} "
            f"({meta['vocab_size']} entries) but the model tokenizer is {TOKENIZER} ({VOCAB} entries); "
            f"re-tokenize the shard or pass --tokenizer {meta['tokenizer']}")
    with open(os.path.join(path, "tokens.json")) as f:
        ids = torch.tensor(json.load(f))
    return ids.view(-1, meta["seq_len"])

class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.head = nn.Linear(64, VOCAB)
    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.head(h)

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(TinyLM())
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    print(f"[{rank}/{world}] params={sum(p.numel() for p in model.parameters())}", flush=True)
    data_root = os.environ.get("DATA", "/tmp/helper37/shards")
    # warm-up on random tokens before the real data is opened
    for step in range(1, 6):
        x = torch.randint(0, VOCAB, (8, 32))
        loss = nn.functional.cross_entropy(model(x[:, :-1]).reshape(-1, VOCAB), x[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"[{rank}/{world}] warmup {step}/5 loss {loss.item():.4f}", flush=True)
    seqs = load_shard(os.path.join(data_root, f"shard-{rank:05d}"))
    print(f"[{rank}/{world}] loaded {len(seqs)} sequences", flush=True)
    for step in range(1, 21):
        x = seqs[(step * 8) % len(seqs):][:8]
        loss = nn.functional.cross_entropy(model(x[:, :-1]).reshape(-1, VOCAB), x[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"[{rank}/{world}] step {step}/20 loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
