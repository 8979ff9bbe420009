#!/bin/bash
# usage: run_5001.sh OUTDIR   (torchrun, 4 ranks; each rank writes OUTDIR/train-<rank>.jsonl, launcher output -> OUTDIR/torchrun.out)
set -u
OUT=$(realpath -m "$1"); mkdir -p "$OUT"
cd "$(dirname "$0")"
OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 trun.py --nproc_per_node 4 \
  --master_addr 127.0.0.1 --master_port 30301 jsonl_job.py "$OUT" > "$OUT/torchrun.out" 2>&1
echo "exit $?"
