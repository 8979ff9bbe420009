#!/bin/bash
# start every rank in the background; each rank's output is tagged with its worker name
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29949} WORLD_SIZE=${WORLD:-4}
for r in $(seq 0 $((WORLD_SIZE - 1))); do
    ( RANK=$r LOCAL_RANK=$r ${PYTHON:-/usr/bin/python3} -u train.py 2>&1 | sed -u "s/^/w2v-w$r| /" ) &
done
wait
echo "all workers exited"
