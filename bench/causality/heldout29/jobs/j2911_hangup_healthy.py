# Healthy DDP training loop (long enough to be interrupted). Control case: the
# torchrun agent is sent SIGHUP from outside (terminal/session closed) mid-run.
import os, datetime, time
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    model = DDP(torch.nn.Linear(64, 8))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(200):
        loss = torch.nn.functional.cross_entropy(model(torch.randn(32, 64)), torch.randint(0, 8, (32,)))
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"rank {rank} step {step}/200 loss {loss.item():.4f}", flush=True)
        time.sleep(0.2)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
