# 4104: tiny 1-D segmenter; rank 0 alone evaluates every 10 steps under torch.no_grad(),
# everyone meets at a barrier afterwards.
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def make_val():
    g = torch.Generator().manual_seed(7)
    # validation masks were exported with 5 classes (train uses 4)
    return torch.randn(16, 3, 64, generator=g), torch.randint(0, 5, (16, 64), generator=g)

def evaluate(model, val):
    x, y = val
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(1)
        conf = torch.bincount(y.flatten() * 4 + pred.flatten(), minlength=16).reshape(4, 4)
        iou = conf.diag() / (conf.sum(0) + conf.sum(1) - conf.diag()).clamp(min=1)
    model.train()
    return iou.mean().item()

def main():
    rank = int(os.environ["RANK"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv1d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv1d(16, 4, 1))
    model = DDP(net)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    val = make_val() if rank == 0 else None
    for step in range(1, 41):
        x = torch.randn(8, 3, 64, generator=g); y = torch.randint(0, 4, (8, 64), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"rank={rank} step={step} loss={loss.item():.4f}", flush=True)
        if step % 10 == 0:
            if rank == 0:
                miou = evaluate(net, val)
                print(f"rank=0 step={step} val_mIoU={miou:.4f}", flush=True)
            dist.barrier()
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
