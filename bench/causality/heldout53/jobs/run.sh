#!/bin/bash
# re-run the jobs of set 53: bash jobs/run.sh [5301 5302 ...]  (one at a time; overwrites the logs)
cd "$(dirname "$0")" || exit 1
cases=${@:-5301 5302 5303 5304 5305}
for c in $cases; do echo "== $c"; bash ./run_$c.sh; done
