# 5001: per-rank JSON-lines logs (python logging, one JSON object per line); torchrun, 4 ranks.
import json, logging, os, socket, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

class JsonFormatter(logging.Formatter):
    def format(self, record):
        d = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + ".%03dZ" % record.msecs,
             "rank": int(os.environ.get("RANK", -1)), "level": record.levelname,
             "logger": record.name, "msg": record.getMessage()}
        if record.exc_info:
            d["msg"] = d["msg"] + "\n" + self.formatException(record.exc_info)
        return json.dumps(d)
logging.Formatter.converter = time.gmtime

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
os.makedirs(sys.argv[1], exist_ok=True)
h = logging.FileHandler(os.path.join(sys.argv[1], "train-%d.jsonl" % rank))
h.setFormatter(JsonFormatter())
log = logging.getLogger("trainer"); log.setLevel(logging.INFO); log.addHandler(h)

VOCAB = {w: i for i, w in enumerate("<pad> <unk> the a of to and in is it".split())}
def encode(line, strict=True):
    return [VOCAB[w] for w in line.split()]

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=25))
    log.info("process group ready: world_size=%d host=%s", world, socket.gethostname())
    torch.manual_seed(0)
    model = DDP(torch.nn.EmbeddingBag(len(VOCAB), 8))
    head = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
    corpus = ["the a of to", "and in is it", "it is the a", "of and to in"] * 10
    if rank == 2:
        corpus[23] = "the a of Tokyo"   # word not in the vocab (this rank's shard)
    for step, line in enumerate(corpus):
        ids = torch.tensor([encode(line)])
        loss = head(model(ids)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)
    dist.barrier()
    log.info("training done")

if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed")
        sys.exit(1)
