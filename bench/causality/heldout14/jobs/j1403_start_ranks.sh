#!/bin/bash
# start one training process per rank in the background, each with its own log file
# and its node-local checkpoint cache, then wait for all of them.
WORLD=${WORLD:-4}
mkdir -p logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29943} WORLD_SIZE=$WORLD
pids=()
for r in $(seq 0 $((WORLD - 1))); do
    RANK=$r LOCAL_RANK=$r CKPT_DIR=$PWD/nvme$r ${PYTHON:-/usr/bin/python3} -u train.py > logs/worker-$r.log 2>&1 &
    pids+=($!)
    echo "$(date '+%F %T') started worker $r pid $!"
done
status=0
for r in "${!pids[@]}"; do
    wait ${pids[$r]}; rc=$?
    echo "$(date '+%F %T') worker $r pid ${pids[$r]} exited with status $rc"
    [ $rc -ne 0 ] && status=1
done
exit $status
