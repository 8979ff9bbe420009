# One rank's shard was tokenized with a newer tokenizer (larger vocab): a token id past the
# embedding table raises IndexError. [rankN]: prefixes over \r progress lines.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
VOCAB = 1000
emb = torch.nn.Embedding(VOCAB, 16); head = torch.nn.Linear(16, VOCAB)
torch.manual_seed(rank)
batches = [torch.randint(0, VOCAB, (4, 12)) for _ in range(20)]
if rank == 1:
    batches[13][2, 7] = 1003          # token added by tokenizer v2
t0 = time.time()
for i, b in enumerate(batches):
    logits = head(emb(b[:, :-1]))
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, VOCAB), b[:, 1:].reshape(-1))
    loss.backward()
    for p in list(emb.parameters()) + list(head.parameters()):
        dist.all_reduce(p.grad)
    sys.stderr.write(f"\r{i+1}/{len(batches)} [{time.time()-t0:5.1f}s] loss={loss.item():.3f}")
    sys.stderr.flush()
    time.sleep(0.1)
sys.stderr.write("\n")
print("finished", flush=True)
