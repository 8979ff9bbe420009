import os, time, datetime, warnings
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

class TextCls(nn.Module):
    def __init__(self, vocab=3000, d=32, n_cls=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1)
        self.enc = nn.TransformerEncoder(layer, 1)
        self.out = nn.Linear(d, n_cls)
    def forward(self, x):
        h = self.enc(self.emb(x).transpose(0, 1))
        return self.out(h.mean(0))

def main():
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(TextCls(), find_unused_parameters=True)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=50, gamma=0.5)
    if rank == 0:
        print(f"world={world} params={sum(p.numel() for p in model.parameters())}", flush=True)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 301):
        if step == 1:
            sched.step()  # warm start: scheduler restored before the first optimizer step
        x = torch.randint(0, 3000, (16, 24), generator=g); y = torch.randint(0, 4, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"[rank {rank}] step {step}/300 loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.2e}", flush=True)
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
