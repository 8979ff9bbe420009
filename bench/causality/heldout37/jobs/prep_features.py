# writes 4 feature-table partitions; partition 1 was exported by the newer pipeline (schema v7)
import json, os, sys, random
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
random.seed(3)
cols6 = ["age_bucket", "tenure_days", "n_orders_30d", "avg_basket", "region_id", "device_type"]
for i in range(4):
    ver, cols = (7, cols6[:4] + ["loyalty_tier"] + cols6[4:]) if i == 1 else (6, cols6)
    rows = [[round(random.random(), 4) for _ in cols] + [random.randint(0, 1)] for _ in range(512)]
    json.dump({"table": "user_features", "schema_version": ver, "columns": cols, "label": "churned", "rows": rows},
              open(os.path.join(out, f"part-{i:04d}.json"), "w"))
