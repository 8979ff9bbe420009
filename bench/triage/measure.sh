#!/usr/bin/env bash
# Times `denpex triage` over generated job directories and reports wall time and peak RSS
# (/usr/bin/time -v). Usage: measure.sh DENPEX [JOBS] [PAD_LINES] [THREADS]
set -euo pipefail
denpex=$1
jobs=${2:-1000}
pad=${3:-2000}
threads=${4:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_jobs.py" "$work/jobs" --jobs "$jobs" --pad "$pad"
for format in text jsonl; do
  /usr/bin/time -v "$denpex" triage -j "$threads" --format "$format" "$work/jobs" >"$work/out.$format" 2>"$work/time.$format" || true
  wall=$(grep 'Elapsed (wall clock)' "$work/time.$format" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$work/time.$format" | awk '{print $NF}')
  echo "triage --format $format: $jobs jobs, -j $threads: wall $wall, peak RSS $((rss / 1024)) MiB"
done
head -12 "$work/out.text"
