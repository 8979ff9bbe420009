#!/bin/bash
# one background process per rank; each rank's output goes to logs/wR.log only
export MASTER_ADDR=127.0.0.1 WORLD_SIZE=4
mkdir -p logs
for r in 0 1 2 3; do
    RANK=$r /usr/bin/python3 -u train.py > logs/w$r.log 2>&1 &
done
wait
