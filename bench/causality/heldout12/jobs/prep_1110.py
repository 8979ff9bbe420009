import json, os
os.makedirs("configs", exist_ok=True)
for r in range(3):
    cap = 50_000
    if r == 2:
        cap = 50_000_000_000_000   # "5e4" typed as "5e13" in this actor's config
    json.dump({"buffer_capacity": cap, "obs_dim": 16, "gamma": 0.99}, open(f"configs/actor-{r}.json", "w"))
