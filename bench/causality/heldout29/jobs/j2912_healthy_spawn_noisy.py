# Control: healthy run under torch.multiprocessing.spawn that logs noisy but handled
# problems: a UserWarning, a caught-and-logged upload failure at ERROR level with a
# traceback (rank 2), a RuntimeWarning. Every rank finishes and exits 0.
import os, datetime, logging, warnings
import numpy as np
import torch, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD = 4

def upload_metrics(rank, epoch):
    raise ConnectionRefusedError(111, "Connection refused: metrics.internal:8125")

def worker(rank):
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s [rank{rank}] %(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("train")
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29641"
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=datetime.timedelta(seconds=30))
    model = DDP(torch.nn.Linear(12, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    warnings.warn("lr scheduler config 'warmup' is deprecated, use 'warmup_steps'", UserWarning)
    for epoch in range(3):
        for _ in range(8):
            x = torch.randn(16, 12)
            loss = torch.nn.functional.mse_loss(model(x), x[:, :1])
            opt.zero_grad(); loss.backward(); opt.step()
        empty_bucket = np.array([], dtype=np.float32)
        with np.errstate(all="warn"):
            _ = empty_bucket.mean()
        log.info("epoch %d loss %.4f", epoch, loss.item())
        if rank == 2:
            try:
                upload_metrics(rank, epoch)
            except ConnectionRefusedError:
                log.exception("metrics upload failed for epoch %d, will retry next epoch", epoch)
    dist.barrier()
    log.info("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, nprocs=WORLD, join=True)
    print("all ranks done", flush=True)
