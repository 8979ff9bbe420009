# Training with metrics pushed to an experiment tracker from rank 0 only. The tracker's
# run-state file is corrupt JSON, so rank 0 raises at its first metrics push (step 5).
# torchrun is started with --max_restarts=1: the restarted group fails the same way.
import os, datetime, json
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

STATE = "/tmp/helper29/tracker/run_state.json"

def push_metrics(step, loss):
    with open(STATE) as f:
        state = json.load(f)
    state.setdefault("history", []).append({"step": step, "loss": loss})

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    print(f"rank {rank} start (restart count {os.environ.get('TORCHELASTIC_RESTART_COUNT')})", flush=True)
    model = DDP(torch.nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(12):
        loss = torch.nn.functional.cross_entropy(model(torch.randn(16, 32)), torch.randint(0, 2, (16,)))
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 5 == 0 and step > 0:
            push_metrics(step, loss.item())
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
