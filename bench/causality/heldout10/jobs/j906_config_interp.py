import json
import os
import re
import sys
import time

import torch
import torch.nn.functional as F

from trainlib import init_distributed, TinyMLP, SyntheticDataset, average_gradients

_REF = re.compile(r"\$\{([^}]+)\}")


class Config:
    def __init__(self, raw, extra):
        self.raw = raw
        self.extra = extra

    def _lookup(self, dotted):
        if dotted in self.extra:
            return str(self.extra[dotted])
        node = self.raw
        for part in dotted.split("."):
            node = node[part]
        return node

    def resolve(self, value):
        return _REF.sub(lambda m: self.get(m.group(1)), value)

    def get(self, dotted):
        return self.resolve(self._lookup(dotted))


def load_config(path, rank):
    raw = json.load(open(path))
    overrides = raw.pop("rank_overrides", {}).get(str(rank), {})
    for k, v in overrides.items():
        section, key = k.split(".")
        raw[section][key] = v
    return Config(raw, {"rank": rank})


def main():
    rank, world = init_distributed(timeout_s=10)
    print(f"rank {rank}/{world} pid {os.getpid()} starting", flush=True)
    cfg = load_config(sys.argv[1], rank)
    steps = int(cfg.get("train.steps"))
    model = TinyMLP()
    opt = torch.optim.SGD(model.parameters(), lr=float(cfg.get("optim.lr")),
                          momentum=float(cfg.get("optim.momentum")))
    ds = SyntheticDataset(n=1024, seed=rank)
    it = iter(torch.utils.data.DataLoader(ds, batch_size=16, shuffle=True))
    for step in range(1, steps + 1):
        x, y = next(it)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        average_gradients(model)
        opt.step()
        time.sleep(0.05)
        if step % int(cfg.get("train.log_every")) == 0:
            print(f"step {step:4d} loss {loss.item():.4f}", flush=True)
        if step == 25:
            cache_dir = cfg.get("data.cache_dir")
            print(f"writing feature cache to {cache_dir}", flush=True)
            os.makedirs(cache_dir, exist_ok=True)
            torch.save(model.state_dict(), os.path.join(cache_dir, "feat.pt"))
    print("training complete", flush=True)


if __name__ == "__main__":
    main()
