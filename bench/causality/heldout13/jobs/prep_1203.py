# writes splits/train_R.json and splits/val_R.json for 4 ranks.  The validation split
# was made with `files[r::world]` over only 3 validation files, so rank 3 gets none.
import json, os
os.makedirs("splits", exist_ok=True)
val_files = [{"seed": 900 + i, "n": 24} for i in range(3)]
for r in range(4):
    json.dump([{"seed": 10 * r + i, "n": 16} for i in range(10)], open(f"splits/train_{r}.json", "w"))
    json.dump(val_files[r::4], open(f"splits/val_{r}.json", "w"))
