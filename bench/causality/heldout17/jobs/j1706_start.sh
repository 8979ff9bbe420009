#!/bin/bash
# Starts 3 ranks in the background; every rank appends to the same train.log with tee -a.
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-30206} WORLD_SIZE=3 FORCE_COLOR=1
for r in 0 1 2; do
    (RANK=$r LOCAL_RANK=$r /usr/bin/python3 -u train.py 2>&1 | tee -a train.log > /dev/null) &
done
wait
