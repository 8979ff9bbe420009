# A "native" audio decoder hits an internal check and calls abort() (libc abort via ctypes here),
# with faulthandler enabled as the job's launcher script does. Only rank 0 decodes the bad file.
import ctypes, faulthandler, os, time
from datetime import timedelta
import torch, torch.distributed as dist

faulthandler.enable()
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
libc = ctypes.CDLL(None)

def decode(path):
    if path.endswith("0417.flac"):
        libc.abort()          # the real decoder: assertion `frame_size > 0' failed -> abort()
    return torch.randn(16000)

for step in range(20):
    path = f"/data/audio/shard{rank}/utt{step * world + rank:04d}.flac"
    wav = decode(path) if not (rank == 0 and step == 9) else decode("/data/audio/shard0/utt0417.flac")
    feats = wav[:4000].reshape(40, 100).mean(0)
    dist.all_reduce(feats)
    if step % 3 == 0:
        print(f"step {step}: {path} ok", flush=True)
    time.sleep(0.1)
