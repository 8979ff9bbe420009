# Tiny GAN. For batches flagged "hard" the generator step is supposed to be
# weighted twice; the code does that by calling backward() a second time on the
# same loss. Only rank 2 gets a hard batch (step 3) -> RuntimeError on rank 2.
import os, datetime
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    torch.manual_seed(rank)
    G = DDP(torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16)))
    D = DDP(torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.LeakyReLU(0.2), torch.nn.Linear(16, 1)))
    og = torch.optim.Adam(G.parameters(), 1e-3); od = torch.optim.Adam(D.parameters(), 1e-3)
    bce = torch.nn.BCEWithLogitsLoss()
    for step in range(8):
        real = torch.randn(32, 16)
        fake = G(torch.randn(32, 8))
        d_loss = bce(D(torch.cat([real, fake.detach()])),
                     torch.cat([torch.ones(32, 1), torch.zeros(32, 1)]))
        od.zero_grad(); d_loss.backward(); od.step()
        g_loss = bce(D(fake), torch.ones(32, 1))
        og.zero_grad(); g_loss.backward()
        hard = (rank == 2 and step == 3)
        if hard:
            g_loss.backward()   # weight hard batch twice
        og.step()
        print(f"[gan] rank={rank} step={step} d_loss={d_loss.item():.3f} g_loss={g_loss.item():.3f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
