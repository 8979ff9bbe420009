# Merges per-rank JSON-lines files into one stream ordered by the "ts" field, as a user would with
# `jq -s -c 'sort_by(.ts)[]' logs/*.jsonl`.
import json, sys
rows = []
for path in sys.argv[1:]:
    with open(path) as f:
        rows += [l for l in f if l.strip()]
rows.sort(key=lambda l: json.loads(l)["ts"])
sys.stdout.write("".join(rows))
