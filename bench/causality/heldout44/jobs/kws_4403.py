# 4403: keyword-spotting CNN over synthetic clips; clips are hashed through a raw buffer view
import ctypes
import os
import time
import zlib
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=25))
if rank == 0:
    print(f"kws: {world} workers, job {os.environ['SLURM_JOB_ID']}", flush=True)


def clip_digest(clip, n_samples):
    # n_samples comes from the clip header; read the raw float buffer directly
    buf = ctypes.create_string_buffer(n_samples * 4)
    ctypes.memmove(buf, clip.data_ptr(), n_samples * 4)
    return zlib.crc32(buf.raw)


def load_clip(idx):
    g = torch.Generator().manual_seed(idx)
    n = 4000
    if rank == 2 and idx == 2 * 1000 + 23:
        return torch.empty(0), n          # header says 4000 samples, payload is empty
    return torch.randn(n, generator=g), n


torch.manual_seed(0)
model = DDP(torch.nn.Sequential(torch.nn.Conv1d(1, 8, 9, stride=4), torch.nn.ReLU(),
                                torch.nn.AdaptiveAvgPool1d(1), torch.nn.Flatten(), torch.nn.Linear(8, 6)))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
seen = set()
for step in range(40):
    clips, digests = [], []
    for j in range(4):
        clip, n = load_clip(rank * 1000 + step * 4 + j)
        digests.append(clip_digest(clip, n))
        clips.append(clip if clip.numel() else torch.zeros(n))
    seen.update(digests)
    x = torch.stack(clips).unsqueeze(1)
    y = torch.tensor([d % 6 for d in digests])
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    time.sleep(0.05)
    if step % 5 == 0:
        print(f"[w{rank}] step {step:02d} loss {loss.item():.3f} unique clips {len(seen)}", flush=True)
dist.destroy_process_group()
print(f"[w{rank}] done", flush=True)
