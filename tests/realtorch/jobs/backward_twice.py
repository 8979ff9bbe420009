# Backward through the same graph twice without retain_graph.
import torch

w = torch.randn(4, requires_grad=True)
loss = (w.exp() * 2).sum()
loss.backward()
loss.backward()
