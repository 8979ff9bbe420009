# Feature-hashing regressor. The "preemptible" worker slot (rank 1 here) is given a
# CPU-seconds quota via RLIMIT_CPU, as a batch system would; the quota is too small
# for the run, so the kernel kills rank 1 with SIGXCPU partway through training.
import os, datetime, resource
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    if rank == 1:
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = int(used.ru_utime + used.ru_stime) + 1
        quota = spent + 4
        resource.setrlimit(resource.RLIMIT_CPU, (quota, quota + 30))
        print(f"rank {rank}: preemptible slot, cpu quota {quota}s", flush=True)
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 1)))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    for step in range(400):
        x = torch.randn(256, 512)
        y = x[:, :8].sum(1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0:
            print(f"rank {rank} step {step} mse {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
