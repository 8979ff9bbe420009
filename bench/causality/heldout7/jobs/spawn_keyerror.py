# torch.multiprocessing.spawn job; one rank meets a record without the expected key.
import os, time, json
from datetime import timedelta
import torch, torch.distributed as dist, torch.multiprocessing as mp

def records(rank):
    for i in range(50):
        r = {"text": "x" * (i % 7 + 1), "label": i % 3}
        if rank == 1 and i == 9:
            del r["label"]               # malformed line in this rank's jsonl slice
        yield r

def worker(rank, world, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=15))
    correct = torch.zeros(1)
    for i, rec in enumerate(records(rank)):
        y = rec["label"]
        correct += float(len(rec["text"]) % 3 == y)
        if i % 4 == 3:
            dist.all_reduce(correct)
            print(f"batch {i // 4}: running correct {int(correct.item())}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    port = int(os.environ.get("MASTER_PORT", "29512"))
    mp.spawn(worker, args=(2, port), nprocs=2, join=True)
