"""Small word-level LM; reports perplexity per rank every 10 steps."""
import math
import os
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, seed_everything

RANK = int(os.environ["RANK"])


def log(msg):
    t = time.time()
    print(time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t*1000)%1000:03d}Z w{RANK} {msg}", flush=True)


class BagLM(nn.Module):
    def __init__(self, vocab=300, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ctx):
        return self.out(self.emb(ctx))


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    data = torch.load(f"tokens/part{rank}.pt")
    ctx, tgt, scale = data["ctx"], data["tgt"], data["loss_scale"]
    log(f"loaded {len(tgt)} examples")
    model = DDP(BagLM())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    t0 = time.time()
    for step in range(1, 221):
        sl = slice((step - 1) * 16 % len(tgt), (step - 1) * 16 % len(tgt) + 16)
        per_ex = F.cross_entropy(model(ctx[sl]), tgt[sl], reduction="none")
        loss = (per_ex * scale[sl]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.03)
        if step % 10 == 0:
            ppl = math.exp(loss.item())
            log(f"step={step} loss={loss.item():.3f} ppl={ppl:.1f} elapsed={time.time() - t0:.1f}s")
    log("done")


if __name__ == "__main__":
    main()
