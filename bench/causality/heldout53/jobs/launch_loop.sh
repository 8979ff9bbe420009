#!/bin/bash
# plain launcher: one background python per rank, then wait; prints each worker's exit status
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$1 WORLD_SIZE=4 OMP_NUM_THREADS=1; shift
echo "starting 4 workers on $MASTER_ADDR:$MASTER_PORT"
pids=()
for r in 0 1 2 3; do RANK=$r nice -n 15 timeout 120 /usr/bin/python3 jobs/trainer.py "$@" & pids+=($!); done
for i in 0 1 2 3; do wait ${pids[$i]}; echo "worker $i (pid ${pids[$i]}) exited with status $?"; done
