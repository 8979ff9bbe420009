import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, average_gradients

N_CLASSES = 12
T = 2.0


def kd_loss(student_logits, teacher_logits, y, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=-1),
                    F.softmax(teacher_logits / T, dim=-1), reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, y)
    return alpha * soft + (1 - alpha) * hard


def main():
    rank, world = init_distributed(timeout_s=10)
    print(f"{time.strftime('%H:%M:%S')} process {os.getpid()} joined as {rank}/{world}", flush=True)
    shard = torch.load(f"teacher/shard{rank}.pt")
    print(f"{time.strftime('%H:%M:%S')} teacher shard: {len(shard['x'])} examples", flush=True)
    student = TinyMLP(d_out=N_CLASSES)
    opt = torch.optim.Adam(student.parameters(), lr=2e-3)
    for epoch in range(3):
        # warm-up epoch uses hard labels only
        for i in range(0, 256, 32):
            x, y, t = shard["x"][i:i + 32], shard["y"][i:i + 32], shard["logits"][i:i + 32]
            out = student(x)
            loss = F.cross_entropy(out, y) if epoch == 0 else kd_loss(out, t, y)
            opt.zero_grad()
            loss.backward()
            average_gradients(student)
            opt.step()
            time.sleep(0.15)
        print(f"{time.strftime('%H:%M:%S')} epoch {epoch} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
