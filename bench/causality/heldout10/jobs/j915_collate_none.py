import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm

from trainlib import init_distributed, TinyMLP


class FileListDataset(torch.utils.data.Dataset):
    def __init__(self, listfile):
        self.files = [l.strip() for l in open(listfile) if l.strip()]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        try:
            x, y = torch.load(self.files[i])
        except (OSError, EOFError):
            return None  # skip unreadable samples
        time.sleep(0.01)
        return x, y


def main():
    rank, world = init_distributed(timeout_s=10)
    ds = FileListDataset(f"filelist-{rank}.txt")
    loader = torch.utils.data.DataLoader(ds, batch_size=8, num_workers=1, shuffle=False)
    print(f"rank {rank}/{world}: {len(ds)} samples, {len(loader)} batches per epoch", flush=True)
    model = DDP(TinyMLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        bar = tqdm(loader, desc=f"epoch {epoch}", mininterval=0.5, ncols=90)
        for x, y in bar:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            bar.set_postfix(loss=f"{loss.item():.3f}")
        bar.close()
    print("training finished", flush=True)


if __name__ == "__main__":
    main()
