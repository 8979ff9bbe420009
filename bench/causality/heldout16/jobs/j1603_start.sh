#!/bin/bash
# Starts one background process per rank.  Each process writes its own file,
# logs/asr-<host>-<pid>.out.  The script waits for them; after the first failure it gives
# the others 5 s and then stops what is left with SIGTERM.
export MASTER_ADDR=127.0.0.1 WORLD_SIZE=4 MASTER_PORT=${MASTER_PORT:-30103}
mkdir -p logs
pids=()
for r in 0 1 2 3; do
    ( exec > "logs/asr-$(hostname -s)-$BASHPID.out" 2>&1
      RANK=$r LOCAL_RANK=$r exec /usr/bin/python3 -u train.py ) &
    pids+=($!)
    echo "$(date +%T) started rank $r as pid $!"
done
stopped=0
for i in 1 2 3 4; do
    wait -n -p done_pid; rc=$?
    echo "$(date +%T) pid $done_pid exited with status $rc"
    if [ $rc -ne 0 ] && [ $stopped -eq 0 ]; then
        stopped=1
        sleep 5
        for p in "${pids[@]}"; do
            if kill -0 $p 2>/dev/null; then echo "$(date +%T) stopping pid $p (SIGTERM)"; kill -TERM $p; fi
        done
    fi
done
echo "$(date +%T) all ranks gone"
