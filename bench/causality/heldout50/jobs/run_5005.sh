#!/bin/bash
# usage: run_5005.sh OUTDIR   -> OUTDIR/node0.log, OUTDIR/node1.log (each agent's whole output)
set -u
OUT=$(realpath -m "$1"); mkdir -p "$OUT"; cd "$(dirname "$0")"
for n in 0 1; do
  skew=0; [ $n = 1 ] && skew=8.0
  CLOCK_SKEW_S=$skew OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 trun.py --nnodes 2 --node_rank $n \
    --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 30305 node_job.py > "$OUT/node$n.log" 2>&1 &
done
wait
echo done
