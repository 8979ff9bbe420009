# 4602: torchrun (shim) --tee 3; HF-style logger lines "[rank N]"; steps wrapped in
# torch.autograd.profiler.record_function blocks. Rank 1's "embed_lookup" block gets an
# out-of-vocab id at step 7 (its shard was tokenized with a larger vocab).
import logging, os
from datetime import timedelta
import torch, torch.distributed as dist
from torch.autograd.profiler import record_function
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                    datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
logger = logging.getLogger("run_lm")
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
logger.info(f"[rank {rank}] Process rank: {rank}, world size: {world}, distributed training: True")
VOCAB = 50
torch.manual_seed(0)
class LM(torch.nn.Module):
    def __init__(self):
        super().__init__(); self.emb = torch.nn.Embedding(VOCAB, 16); self.out = torch.nn.Linear(16, VOCAB)
    def forward(self, ids):
        with record_function("embed_lookup"):
            h = self.emb(ids)
        with record_function("lm_head"):
            return self.out(h.mean(1))
model = DDP(LM()); opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(rank)
logger.info(f"[rank {rank}] ***** Running training *****  Num steps = 30")
for step in range(1, 31):
    hi = VOCAB + 8 if (rank == 1 and step >= 7) else VOCAB
    ids = torch.randint(0, hi, (8, 12), generator=g)
    ids[0, 0] = hi - 1
    with record_function("train_step"):
        logits = model(ids)
        loss = torch.nn.functional.cross_entropy(logits, ids[:, 0])
        loss.backward(); opt.step(); opt.zero_grad()
    if step % 5 == 0:
        logger.info(f"[rank {rank}] {{'loss': {loss.item():.4f}, 'learning_rate': 0.001, 'step': {step}}}")
dist.barrier()
logger.info(f"[rank {rank}] Training completed.")
