# Two ranks fail with different errors at different times; the first one is the initiator.
import os, time, logging
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
                    format=f"%(asctime)s.%(msecs)03d | rank {rank} | %(levelname)-7s | %(message)s",
                    datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger("job")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))

def main():
    log.info("preprocessing local split")

    def preprocess(n):
        out = []
        for i in range(n):
            if rank == 2 and i == 12:
                raise ValueError("could not convert string to float: 'N/A' (column 'price', row 12)")
            out.append(float(i))
            time.sleep(0.1)
        return out

    if rank == 0:
        # rank 0 builds the vocabulary meanwhile (no collectives), and then hits its own bug
        vocab = {}
        for i in range(40):
            vocab[f"tok{i}"] = i
            time.sleep(0.1)
        log.info("vocab built: %d entries", len(vocab))
        ids = [vocab[t] for t in ["tok1", "tok2", "<unk>"]]
    data = preprocess(20)
    log.info("preprocessed %d rows", len(data))
    dist.barrier()
    log.info("all ranks ready")

try:
    main()
except Exception:
    log.exception("worker failed")
    raise
