# torch.multiprocessing.spawn with a rank that is killed by SIGKILL (as the OOM killer would).
import os
import signal

import torch.multiprocessing as mp


def work(rank):
    print(f"rank {rank} started", flush=True)
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    import time
    time.sleep(30)


if __name__ == "__main__":
    mp.spawn(work, nprocs=2)
