"""Next-click model over fixed-length click sessions (DDP, 4 ranks).  main() is wrapped in
torch.distributed.elastic's @record, so a worker's exception goes to torchrun's error file."""
import json
import time

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

import hx20lib


class Sessions(Dataset):
    def __init__(self, path):
        self.rows = [json.loads(l) for l in open(path)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        return torch.tensor(r["items"]), torch.tensor(r["label"])


class ClickNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(500, 16)
        self.out = torch.nn.Linear(16, 2)

    def forward(self, items):
        return self.out(self.emb(items).mean(dim=1))


@record
def main():
    rank, world = hx20lib.init()
    ds = Sessions(f"data/sessions-{rank:02d}.jsonl")
    print(f"r{rank} | {len(ds)} sessions", flush=True)
    dl = DataLoader(ds, batch_size=16, shuffle=False)
    torch.manual_seed(0)
    model = DDP(ClickNet())
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for epoch in range(2):
        for step, (items, label) in enumerate(dl):
            loss = torch.nn.functional.cross_entropy(model(items), label)
            opt.zero_grad(); loss.backward(); opt.step()
            time.sleep(0.03)
            if step % 5 == 4:
                print(f"r{rank} | epoch {epoch} step {step + 1} loss {loss.item():.4f}", flush=True)
    print(f"r{rank} | done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
