#!/usr/bin/env bash
# denpex diagnose vs ripgrep with the same fingerprints, side by side in one run.
# usage: bench/logs/run.sh [SIZE_MIB=1024] [DENPEX=build/denpex]
set -euo pipefail
SIZE=${1:-1024}
DENPEX=${2:-build/denpex}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${BENCH_DIR:-/tmp/denpex-bench}
mkdir -p "$WORK"
LOG=$WORK/train-${SIZE}MiB.log
[ -f "$LOG" ] || /usr/bin/python3 "$HERE/gen.py" "$LOG" "$SIZE"
"$DENPEX" signatures list --format json |
  /usr/bin/python3 -c '
import json, re, sys
# ripgrep joins all patterns into one regex, where repeated capture names are an error: the
# names matter only to denpex, so they become plain groups for rg.
for e in json.load(sys.stdin):
    for p in e["fingerprints"]:
        print(re.sub(r"\(\?P<\w+>", "(?:", p))' > "$WORK/patterns.txt"
echo "log: $LOG ($(stat -c %s "$LOG") bytes), $(wc -l < "$WORK/patterns.txt") patterns"
cat "$LOG" > /dev/null  # warm the page cache for both tools

measure() {  # name, command...
  local name=$1; shift
  /usr/bin/time -v "$@" > "$WORK/$name.out" 2> "$WORK/$name.time" || true
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$WORK/$name.time" | awk '{print $NF}')
  rss=$(grep "Maximum resident set size" "$WORK/$name.time" | awk '{print $NF}')
  echo "$name: wall $wall, peak RSS $((rss / 1024)) MiB"
  echo "$wall" > "$WORK/$name.wall"
}
measure denpex "$DENPEX" diagnose --format json "$LOG"
measure ripgrep rg --no-config -c -f "$WORK/patterns.txt" "$LOG"
/usr/bin/python3 - "$WORK" "$(stat -c %s "$LOG")" <<'PY'
import json, sys
work, size = sys.argv[1], int(sys.argv[2])
def secs(name):
    t = open(f"{work}/{name}.wall").read().strip().split(":")
    return sum(float(x) * 60 ** i for i, x in enumerate(reversed(t)))
d, r = secs("denpex"), secs("ripgrep")
print(f"throughput: denpex {size / d / 2**20:.0f} MiB/s, ripgrep {size / r / 2**20:.0f} MiB/s, ratio {r / d:.2f}x")
j = json.load(open(f"{work}/denpex.out"))
top = j["diagnoses"][0] if j["diagnoses"] else None
print("diagnosis:", top and (top["entry"], top["initiating_rank"], top["first_error"]["line"]))
PY
# 1 MB end to end (start-up and library included): the last MiB of the log, 20 runs, median.
tail -c 1048576 "$LOG" > "$WORK/1mb.log"
head -c 900000 "$WORK/1mb.log" > "$WORK/1mb-fail.log"
grep -m4 "rank37\]: " "$LOG" >> "$WORK/1mb-fail.log"
/usr/bin/python3 - "$DENPEX" "$WORK/1mb-fail.log" <<'PY'
import subprocess, sys, time
ts = []
for _ in range(20):
    t = time.perf_counter()
    subprocess.run([sys.argv[1], "diagnose", "--format", "json", sys.argv[2]], stdout=subprocess.DEVNULL)
    ts.append(time.perf_counter() - t)
ts.sort()
print(f"1 MB end to end: median {ts[10] * 1000:.1f} ms, min {ts[0] * 1000:.1f} ms")
PY
