import os
import time
import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients, fake_compute

CKPT_ROOT = "checkpoints"


def find_latest():
    with open(os.path.join(CKPT_ROOT, "latest")) as f:
        return os.path.join(CKPT_ROOT, f.read().strip())


def load_checkpoint(model, opt, rank):
    d = find_latest()
    state = torch.load(os.path.join(d, "model.pt"))
    model.load_state_dict(state["model"])
    # optimizer state is sharded: every rank keeps its own slice
    shard = torch.load(os.path.join(d, f"optim_rank{rank:02d}.pt"))
    opt.load_state_dict(shard["optimizer"])
    torch.set_rng_state(shard["rng"])
    return state["step"], state["epoch"]


def main():
    rank, world = init_distributed(timeout_s=12)
    print(f"[{time.strftime('%H:%M:%S')}] process group ready: rank {rank} of {world}", flush=True)
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    print(f"resuming from {find_latest()}", flush=True)
    step, epoch = load_checkpoint(model, opt, rank)
    t = torch.tensor([step])
    dist.broadcast(t, src=0)
    print(f"resumed at step {int(t)} epoch {epoch}", flush=True)
    ds = SyntheticDataset(seed=rank)
    loader = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=True)
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        step += 1
        fake_compute(0.1)
        if rank == 0 and step % 2 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
