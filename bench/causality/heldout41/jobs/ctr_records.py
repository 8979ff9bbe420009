# 4103: click-through model; per-rank record files read by a map-style Dataset with 2 workers
import os, sys, struct, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP

REC = 8 + 24 * 4

class RecordFile(Dataset):
    def __init__(self, path):
        self.path = path
        size = os.path.getsize(path)
        self.n = (size + REC - 1) // REC
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        with open(self.path, "rb") as f:
            f.seek(i * REC)
            buf = f.read(REC)
        label, n = struct.unpack_from("<II", buf, 0)
        vals = struct.unpack_from(f"<{n}f", buf, 8)
        return torch.tensor(vals), torch.tensor(float(label))

def main():
    rank = int(os.environ["RANK"])
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s")
    log = logging.getLogger("ctr.train")
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    ds = RecordFile(f"/tmp/helper41/records/clicks-{rank:02d}.rec")
    log.info("opened %s: %d records", ds.path, len(ds))
    dl = DataLoader(ds, batch_size=4, shuffle=False, num_workers=2)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(24, 16), nn.ReLU(), nn.Linear(16, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step = 0
    for epoch in range(2):
        for x, y in dl:
            step += 1
            loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 4 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
