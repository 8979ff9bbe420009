#!/bin/bash
# one nohup per "node", each writes <jobid>.<node>.out
JOB_ID=${JOB_ID:-48213}
OUTDIR=$1; shift
mkdir -p "$OUTDIR"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${PORT:-29638} WORLD_SIZE=4 OMP_NUM_THREADS=1
nodes=(kestrel osprey heron plover)
for r in 0 1 2 3; do
  NODE_NAME=${nodes[$r]} RANK=$r nohup /usr/bin/python3 "$@" > "$OUTDIR/$JOB_ID.${nodes[$r]}.out" 2>&1 &
done
wait
