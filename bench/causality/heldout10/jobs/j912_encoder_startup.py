import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients


def load_pretrained(local_rank):
    path = os.path.join("cache", f"slot{local_rank}", "encoder.pt")
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} loading pretrained encoder from {path}", flush=True)
    ckpt = torch.load(path, map_location="cpu")
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} encoder {ckpt['meta']['arch']} (epoch {ckpt['meta']['epoch']})", flush=True)
    return ckpt["state_dict"]


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    model = TinyMLP(d_hidden=64)
    model.load_state_dict(load_pretrained(local_rank))
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} initializing process group", flush=True)
    rank, world = init_distributed(timeout_s=10)
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} rank {rank}/{world} ready", flush=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    ds = SyntheticDataset(n=256, seed=rank)
    for epoch in range(2):
        for x, y in torch.utils.data.DataLoader(ds, batch_size=32):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            average_gradients(model)
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
