#!/bin/bash
# 3 ranks, each line-buffered with stdbuf -oL, every rank appends to one shared file with tee -a
OUT=$1; : > $OUT
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30602 WORLD_SIZE=3 OMP_NUM_THREADS=1
for r in 0 1 2; do
  ( RANK=$r LOCAL_RANK=$r nice -n 15 timeout 60 stdbuf -oL -eL /usr/bin/python3 -u jobs/train.py --case subproc 2>&1 | tee -a $OUT > /dev/null ) &
done
wait
echo "launcher: all ranks finished at $(date -u +%H:%M:%S)" | tee -a $OUT >/dev/null
