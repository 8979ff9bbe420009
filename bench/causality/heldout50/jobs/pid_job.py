# 5004: logging lines carry [asctime][hostname:pid] but no rank; 4 ranks started by a bash launcher.
import logging, os, socket, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

class HostFilter(logging.Filter):
    def filter(self, record):
        record.hostname = socket.gethostname(); return True
h = logging.StreamHandler(sys.stdout)
h.addFilter(HostFilter())
h.setFormatter(logging.Formatter("[%(asctime)s][%(hostname)s:%(process)d] %(levelname)s %(message)s"))
log = logging.getLogger("ctr"); log.setLevel(logging.INFO); log.addHandler(h)
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    log.info("joined process group (world size %d)", world)
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    cache = []
    for step in range(1, 41):
        x = torch.randn(64, 20); y = (x.sum(1, keepdim=True) > 0).float()
        # hard-negative cache: rank 3's shard has a hot id, so its cache keeps everything
        if rank == 3 and step >= 10:
            cache.append(bytearray(80 * 1024 * 1024))
        loss = torch.nn.functional.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f cache_items %d", step, loss.item(), len(cache))
        time.sleep(0.2)
    dist.barrier()
    log.info("finished")

if __name__ == "__main__":
    main()
