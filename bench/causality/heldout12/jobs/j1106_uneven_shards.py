"""Manual iterator loop over per-rank shards; shards were split by file, not by row count."""
import os
import time
import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, seed_everything, average_gradients

RANK = int(os.environ["RANK"])


def say(msg):
    t = time.time()
    print(time.strftime("%H:%M:%S", time.localtime(t)) + f".{int(t*1000)%1000:03d}  worker-{RANK}  {msg}", flush=True)


def main():
    rank, world = init_distributed(timeout_s=10)
    seed_everything(0)
    d = torch.load(f"shards/shard-{rank}.pt")
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(d["x"], d["y"]), batch_size=16)
    say(f"shard-{rank}.pt has {len(d['y'])} rows -> {len(loader)} batches")
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    it = iter(loader)
    step = 0
    while True:
        try:
            x, y = next(it)
        except StopIteration:
            say(f"data exhausted after {step} steps")
            break
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        step += 1
        time.sleep(0.08)
        if step % 10 == 0:
            say(f"step {step} loss {loss.item():.4f}")
    dist.barrier()
    if rank == 0:
        torch.save(model.state_dict(), "final.pt")
    say("done")


if __name__ == "__main__":
    main()
