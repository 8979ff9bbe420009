#!/bin/bash
# start one background process per rank, each with its own log file; then wait for all
export MASTER_ADDR=127.0.0.1 WORLD_SIZE=4
mkdir -p logs
for r in 0 1 2 3; do
    RANK=$r /usr/bin/python3 -u train.py > logs/rank-$r.log 2>&1 &
    echo "$(date +%T) launched rank $r pid $!"
done
wait
echo "$(date +%T) all ranks done"
