import json
cfg = {
    "model": {"d_in": 16, "d_hidden": 64, "d_out": 4, "dropout": 0.1},
    "optim": {"lr": 0.002, "weight_decay": 0.01},
    "train": {"epochs": 3, "batch_size": 32, "log_every": 4},
    # "eval" block was copied from an older experiment and lacks the metrics section
    "eval": {"every": 6, "batch_size": 64, "split": "val"},
}
json.dump(cfg, open("config.json", "w"), indent=2)
