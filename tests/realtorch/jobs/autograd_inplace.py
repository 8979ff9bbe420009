# An activation saved for backward is modified in place.
import torch

w = torch.randn(4, 4, requires_grad=True)
y = torch.sigmoid(w)
y.mul_(2)
y.sum().backward()
