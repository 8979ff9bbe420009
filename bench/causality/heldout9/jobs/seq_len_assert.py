# accelerate-like start-up print (Distributed environment / Process index) and HF-style logging
# without rank. Rank 3's shard contains an over-long document that the packer did not split:
# assert len(ids) <= max_len fails. Peers: Connection closed.
import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                    datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO, stream=sys.stdout)
log = logging.getLogger(__name__)
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
print(f"Distributed environment: MULTI_CPU  Backend: gloo\nNum processes: {world}\nProcess index: {rank}\n"
      f"Local process index: {rank}\nDevice: cpu\n", flush=True)
max_len = 512

def pack(doc_len):
    ids = list(range(doc_len))
    assert len(ids) <= max_len, f"sequence too long after packing: {len(ids)} > {max_len}"
    return torch.tensor(ids[:max_len] + [0] * (max_len - len(ids)), dtype=torch.float32)

for step in range(20):
    doc_len = 300 + 10 * step
    if rank == 3 and step == 8:
        doc_len = 1873
    x = pack(doc_len)
    dist.all_reduce(x)
    if step % 4 == 0:
        log.info("step %d, tokens seen %d", step, (step + 1) * max_len * world)
    time.sleep(0.1)
log.info("Training completed")
