# writes run_config.json; the rank-1 section was saved under a mistyped key ("rnak1")
import json
cfg = {"common": {"batch_size": 32, "noise": 1.0},
       "per_rank": {"rank0": {"seed": 11}, "rnak1": {"seed": 12}, "rank2": {"seed": 13}}}
json.dump(cfg, open("run_config.json", "w"), indent=1)
