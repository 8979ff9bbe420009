#!/bin/bash
cd "$1"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30054 WORLD_SIZE=4 OMP_NUM_THREADS=1 RUN_ID=lm-0412-a
for r in 0 1 2 3; do
  RANK=$r nice -n 15 timeout 120 /usr/bin/python3 /work/main/bench/causality/heldout48/jobs/lm_token_stats.py &
done
wait
