# One task of the Slurm job array in tests/slurm/run.sh: a small real PyTorch training loop on CPU
# that fails the way its array index says (or not at all).
import os
import signal

import torch

task = int(os.environ["SLURM_ARRAY_TASK_ID"])
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(64, 8)
target = torch.randn(64, 1)


def batch_for(step):
    batch = {"input_ids": data[step * 8:(step + 1) * 8], "labels": target[step * 8:(step + 1) * 8]}
    if task == 2 and step == 3:
        del batch["labels"]  # a malformed sample: the code expects the key
    return batch


for step in range(6):
    batch = batch_for(step)
    loss = torch.nn.functional.mse_loss(model(batch["input_ids"]), batch["labels"])
    if task == 1 and step == 2:
        loss = loss * float("nan")
    if torch.isnan(loss):
        raise RuntimeError(f"Loss is NaN at step {step}, stopping training")
    if task == 3 and step == 4:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"task {task} step {step} loss {loss.item():.4f}", flush=True)
print(f"task {task} done", flush=True)
