# Healthy run: completes on every rank, with real UserWarnings (DataLoader worker count above
# the CPU count, copy-constructing a tensor) and WARNING log lines; loguru-like format.
import os, time, logging, warnings
from datetime import timedelta
import torch, torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s.%(msecs)03d | %(levelname)-8s | "
                    "%(name)s:%(funcName)s:%(lineno)d - %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger("train")
logging.captureWarnings(False)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    ds = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    dl = DataLoader(ds, batch_size=16, num_workers=3)
    model = torch.nn.Linear(8, 2)
    w0 = torch.tensor(model.weight)             # UserWarning: copy construct
    for epoch in range(2):
        for x, y in dl:
            loss = torch.nn.functional.cross_entropy(model(x), y); loss.backward()
            for p in model.parameters(): dist.all_reduce(p.grad); p.grad /= world
            model.zero_grad()
        if rank == 0:
            log.warning("epoch %d: val set not configured, skipping evaluation", epoch)
        log.info("epoch %d done, loss %.4f", epoch, loss.item())
    dist.barrier()
    if rank == 0:
        log.info("Training finished. Saved model to /tmp/denpex-heldout8/model.pt")
    dist.destroy_process_group()

main()
