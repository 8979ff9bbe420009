# 4406: char-level LSTM LM; on SIGUSR1 (sent by Slurm before the time limit) rank 0 writes a checkpoint
import os
import signal
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
CKPT = "/tmp/helper44/ckpt-4406.pt"
usr1 = {"at": None}


def on_usr1(signum, frame):
    usr1["at"] = time.time()


signal.signal(signal.SIGUSR1, on_usr1)
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=30))
print(f"rank {rank}: up (job {os.environ['SLURM_JOB_ID']}, pid {os.getpid()})", flush=True)


class CharLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(64, 32)
        self.lstm = torch.nn.LSTM(32, 48, batch_first=True)
        self.head = torch.nn.Linear(48, 64)

    def forward(self, x):
        return self.head(self.lstm(self.emb(x))[0])


torch.manual_seed(0)
model = DDP(CharLM())
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
g = torch.Generator().manual_seed(rank)
saved = False
for step in range(100000):
    x = torch.randint(0, 64, (16, 33), generator=g)
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x[:, :-1]).reshape(-1, 64), x[:, 1:].reshape(-1))
    loss.backward()
    opt.step()
    time.sleep(0.1)
    if usr1["at"] is not None and not saved:
        if rank == 0:
            torch.save({"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}, CKPT)
            print(f"rank 0: SIGUSR1 received, checkpoint at step {step} written to {CKPT}", flush=True)
        else:
            print(f"rank {rank}: SIGUSR1 received at step {step}", flush=True)
        saved = True
    if step % 50 == 0:
        print(f"rank {rank} step {step} loss {loss.item():.3f}", flush=True)
