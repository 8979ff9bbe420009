# 4902: torchrun --redirects 3 --log_dir. Each rank checks its token shard against the vocab
# it was built with; rank 2's shard header says another vocab size, it prints a plain message
# and leaves with sys.exit(2) at the start of epoch 1 (after epoch 0 trained normally).
import os, sys, time, logging, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("lm.train")
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
VOCAB = 512
shard_vocab = {0: 512, 1: 512, 2: 520, 3: 512}   # shard headers, one shard per rank per epoch
log.info("rank %d of %d, vocab %d", rank, world, VOCAB)
model = DDP(nn.Sequential(nn.Embedding(VOCAB, 24), nn.Flatten(), nn.Linear(24 * 8, VOCAB)))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
g = torch.Generator().manual_seed(rank)
for epoch in range(3):
    sv = shard_vocab[rank] if epoch == 1 else VOCAB
    name = f"tok-e{epoch}-s{rank:03d}.bin"
    if sv != VOCAB:
        print(f"shard {name}: header vocab_size={sv} but model vocab_size={VOCAB}; "
              f"was it tokenized with a different tokenizer? aborting this worker", flush=True)
        sys.exit(2)
    log.info("epoch %d: shard %s ok (vocab %d)", epoch, name, sv)
    for step in range(1, 16):
        x = torch.randint(0, VOCAB, (16, 8), generator=g); y = x[:, -1]
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
dist.barrier()
log.info("finished")
