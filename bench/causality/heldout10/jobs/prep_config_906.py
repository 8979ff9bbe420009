import json
cfg = {
    "paths": {"root": "/tmp/hx10/906", "data": "${paths.root}/data", "cache": "${paths.root}/cache"},
    "data": {"train": "${paths.data}/train", "cache_dir": "${paths.cache}/rank${rank}"},
    "optim": {"lr": "0.01", "momentum": "0.9"},
    "train": {"steps": "60", "log_every": "10"},
    # per-rank overrides (rank 2 was moved to a scratch disk by hand last week)
    "rank_overrides": {"2": {"paths.cache": "${data.cache_dir}/../scratch"}},
}
json.dump(cfg, open("run_config.json", "w"), indent=2)
