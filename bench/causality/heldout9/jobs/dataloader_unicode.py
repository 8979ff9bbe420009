# Text dataset read in DataLoader workers (num_workers=2); every rank shows a tqdm bar on stderr
# (desc "rank N"). One file in rank 2's shard is Latin-1, not UTF-8: the worker raises
# UnicodeDecodeError and the main process re-raises it. Peers: Connection closed.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader
from tqdm import tqdm

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
root = os.environ["TEXT_ROOT"]

class Lines(Dataset):
    def __init__(self, files): self.files = files
    def __len__(self): return len(self.files)
    def __getitem__(self, i):
        with open(self.files[i], encoding="utf-8") as f:
            text = f.read()
        ids = [ord(c) % 1000 for c in text[:64]]
        ids += [0] * (64 - len(ids))
        return torch.tensor(ids)

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
files = sorted(os.path.join(root, f"shard{rank}", n) for n in os.listdir(os.path.join(root, f"shard{rank}")))
dl = DataLoader(Lines(files), batch_size=4, num_workers=2)
emb = torch.nn.EmbeddingBag(1000, 16)
for batch in tqdm(dl, desc=f"rank {rank}"):
    out = emb(batch).sum()
    out.backward()
    for p in emb.parameters():
        dist.all_reduce(p.grad)
    emb.zero_grad()
    time.sleep(0.1)
