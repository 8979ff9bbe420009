# A DataLoader worker dies from SIGKILL while producing a batch.
import os
import signal

import torch
from torch.utils.data import DataLoader, Dataset


class Data(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        if i == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return torch.zeros(4)


if __name__ == "__main__":
    for batch in DataLoader(Data(), batch_size=4, num_workers=2):
        pass
