#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29617 WORLD_SIZE=2 WORKER_CPUS="0-1"
echo "launching $WORLD_SIZE workers (WORKER_CPUS=$WORKER_CPUS)"
for r in 0 1; do
    RANK=$r LOCAL_RANK=$r /usr/bin/python3 train.py &
done
wait
echo "all workers exited"
