import os
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from trainlib import init_distributed, TinyMLP, SyntheticDataset


def parse_cpus(spec):
    out = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def pin_threads(local_rank):
    # WORKER_CPUS: ';'-separated core list per local worker, e.g. "0-7;8-15"
    cpus = parse_cpus(os.environ["WORKER_CPUS"].split(";")[local_rank])
    os.sched_setaffinity(0, cpus)
    torch.set_num_threads(len(cpus))
    print(f"pinned to cpus {cpus}, torch threads = {torch.get_num_threads()}", flush=True)


def main():
    rank, world = init_distributed(timeout_s=10)
    pin_threads(int(os.environ["LOCAL_RANK"]))
    model = DDP(TinyMLP(d_hidden=128))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ds = SyntheticDataset(n=512, seed=rank)
    loader = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=True)
    for epoch in range(3):
        t0 = time.time()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} ({time.time() - t0:.1f}s)", flush=True)


if __name__ == "__main__":
    main()
