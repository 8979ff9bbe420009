#!/bin/bash
# start the ranks in the background, one log file each; on SIGTERM keep waiting for them
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29952} WORLD_SIZE=${WORLD:-4}
mkdir -p logs
trap 'echo "$(date "+%F %T") start_ranks: caught SIGTERM, waiting for workers to exit"' TERM
pids=()
for r in $(seq 0 $((WORLD_SIZE - 1))); do
    RANK=$r LOCAL_RANK=$r ${PYTHON:-/usr/bin/python3} -u train.py > logs/distill.rank$r.log 2>&1 &
    pids+=($!)
done
echo "$(date '+%F %T') start_ranks: launched ${#pids[@]} workers: ${pids[*]}"
for r in "${!pids[@]}"; do
    while true; do
        wait ${pids[$r]}; rc=$?
        if [ $rc -gt 128 ] && kill -0 ${pids[$r]} 2>/dev/null; then continue; fi
        break
    done
    echo "$(date '+%F %T') start_ranks: worker $r (pid ${pids[$r]}) exit status $rc"
done
