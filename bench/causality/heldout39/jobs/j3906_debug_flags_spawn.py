#!/usr/bin/env python3
"""Small GRU sequence regressor, spawn launcher, all the hang-debugging aids switched on."""
import datetime, faulthandler, logging, os, sys, tempfile, time
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD = 4

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(6, 24, batch_first=True)
        self.out = nn.Linear(24, 1)
    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h[:, -1])

def save_checkpoint(model, opt, path):
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, path)
    time.sleep(3.5)  # network filesystem: close()+fsync takes a few seconds

def worker(rank, port, ckdir):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s.%(msecs)03d [rank{rank}] %(levelname)s %(name)s: %(message)s",
                        datefmt="%H:%M:%S")
    log = logging.getLogger("train")
    faulthandler.enable()
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=datetime.timedelta(seconds=25))
    torch.manual_seed(0)
    model = DDP(Model())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(2):
        for step in range(12):
            faulthandler.dump_traceback_later(20, repeat=False)
            x = torch.randn(16, 10, 6, generator=g)
            y = x.sum((1, 2)).unsqueeze(1) * 0.1
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            faulthandler.cancel_dump_traceback_later()
            if step % 3 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        if rank == 0:
            # short watchdog around the checkpoint write so slow storage shows up in the log
            faulthandler.dump_traceback_later(2, repeat=False)
            save_checkpoint(model.module, opt, os.path.join(ckdir, f"ep{epoch}.pt"))
            faulthandler.cancel_dump_traceback_later()
            log.info("saved checkpoint ep%d.pt", epoch)
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=20), wait_all_ranks=True)
        log.info("epoch %d: all ranks passed barrier", epoch)
    dist.destroy_process_group()
    log.info("finished")

if __name__ == "__main__":
    mp.spawn(worker, args=(int(sys.argv[1]), tempfile.mkdtemp(prefix="ck_")), nprocs=WORLD)
