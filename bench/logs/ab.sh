#!/usr/bin/env bash
# Interleaved A/B of denpex builds (and ripgrep) on one log: RUNS rounds, each running every
# binary once and then `rg -c -f`, so that load from other processes hits all of them alike.
# Prints the median wall time of each (and the load average before and after); the JSON of the
# last round of each build is kept in $WORK/ab-<name>.json for `cmp`.
# usage: bench/logs/ab.sh LOG RUNS DENPEX... (build one aside first: cp build/denpex /tmp/old)
set -euo pipefail
LOG=$1
RUNS=$2
shift 2
WORK=${BENCH_DIR:-/tmp/denpex-bench}
PATTERNS=$WORK/patterns.txt  # written by measure.py
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT
echo "load average before: $(cut -d' ' -f1 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
  for b in "$@"; do
    /usr/bin/time -f "$b %e" -a -o "$TIMES" "$b" diagnose --format json "$LOG" > "$WORK/ab-$(basename "$b").json" || true
  done
  /usr/bin/time -f "rg %e" -a -o "$TIMES" rg --no-config -c -f "$PATTERNS" "$LOG" > /dev/null || true
done
for name in "$@" rg; do
  grep "^$name " "$TIMES" | awk '{print $2}' | sort -n |
    awk -v n="$name" '{v[NR] = $1} END {printf "%s: median %.2f s (min %.2f, %d runs)\n", n, v[int((NR + 1) / 2)], v[1], NR}'
done
echo "load average after: $(cut -d' ' -f1 /proc/loadavg)"
