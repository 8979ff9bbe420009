# Loading a checkpoint whose keys do not fit the model.
import torch

model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
ckpt = {"encoder.weight": torch.zeros(4, 4), "encoder.bias": torch.zeros(4)}
model.load_state_dict(ckpt)
