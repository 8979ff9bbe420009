# JSON-lines logs ({"ts","level","rank","msg"}). Records are length-prefixed; rank 0's shard has a
# corrupted length header (0x0000_0200_0000_0000 bytes), so bytearray(n) raises MemoryError.
# Peers: Connection closed (their ERROR objects carry the traceback).
import json, os, sys, time, traceback
from datetime import timedelta
import torch, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
def jlog(level, msg, **kw):
    print(json.dumps({"ts": round(time.time(), 3), "level": level, "rank": rank, "msg": msg, **kw}), flush=True)

def read_record(i):
    n = 4096
    if rank == 0 and i == 7:
        n = int.from_bytes(bytes.fromhex("0000020000000000"), "big")
    buf = bytearray(n)
    return torch.frombuffer(buf, dtype=torch.uint8)[:256].float()

try:
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    jlog("INFO", "process group initialized", world_size=world)
    for i in range(15):
        x = read_record(i)
        dist.all_reduce(x)
        jlog("INFO", "record done", record=i)
        time.sleep(0.1)
except Exception as e:
    jlog("ERROR", f"{type(e).__name__}: {e}", traceback=traceback.format_exc())
    sys.exit(1)
