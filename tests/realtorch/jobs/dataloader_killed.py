# A DataLoader worker dies from SIGKILL while producing a batch.
import os
import signal
import time

import torch
from torch.utils.data import DataLoader, Dataset


class Data(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        if i == 5:
            # The main process installs its SIGCHLD handler only after it has started the workers.
            # A worker that dies before that (a loaded CI machine) leaves only the later
            # "exited unexpectedly" line, without "is killed by signal": wait until the handler
            # is surely there, so that the run prints what a real mid-epoch kill prints.
            time.sleep(2)
            os.kill(os.getpid(), signal.SIGKILL)
        return torch.zeros(4)


if __name__ == "__main__":
    for batch in DataLoader(Data(), batch_size=4, num_workers=2):
        pass
