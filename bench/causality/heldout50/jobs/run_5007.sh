#!/bin/bash
# usage: run_5007.sh OUTDIR   control: the 5005 two-node job without the fault and with 200 steps;
# after 9 s the operator cancels it with SIGTERM to both torchrun agents (as a scheduler would).
set -u
OUT=$(realpath -m "$1"); mkdir -p "$OUT"; cd "$(dirname "$0")"
agents=()
for n in 0 1; do
  skew=0; [ $n = 1 ] && skew=8.0
  FAULT=none STEPS=200 CLOCK_SKEW_S=$skew OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 trun.py --nnodes 2 --node_rank $n \
    --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 30309 node_job.py > "$OUT/node$n.log" 2>&1 &
  agents+=($!)
done
sleep 9
kill -TERM "${agents[@]}"   # the timeout(1) wrappers pass SIGTERM on to the torchrun agents
wait
echo done
