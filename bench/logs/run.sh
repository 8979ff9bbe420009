#!/usr/bin/env bash
# denpex diagnose vs ripgrep with the same fingerprints, side by side in one run, on a clean log
# and on logs where 1%, 5% and 20% of the lines match a fingerprint (warnings repeated every step).
# usage: bench/logs/run.sh [SIZE_MIB=256] [DENPEX=build/denpex] [RUNS=5] [DENSITIES="0 0.01 0.05 0.2"]
# Linearity: run it again with a quarter of the size and compare the seconds per MiB.
set -euo pipefail
SIZE=${1:-256}
DENPEX=$(realpath "${2:-build/denpex}")
RUNS=${3:-5}
DENSITIES=${4:-0 0.01 0.05 0.2}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${BENCH_DIR:-/tmp/denpex-bench}
mkdir -p "$WORK"
# shellcheck disable=SC2086
exec /usr/bin/python3 "$HERE/measure.py" "$WORK" "$DENPEX" "$SIZE" "$RUNS" $DENSITIES
