#!/bin/bash
# one background process per rank, all writing to this script's console; wait for each
export MASTER_ADDR=127.0.0.1 WORLD_SIZE=4
pids=()
for r in 0 1 2 3; do
    RANK=$r /usr/bin/python3 -u train.py &
    pids+=($!)
    echo "start: rank $r -> pid $!"
done
for p in "${pids[@]}"; do
    wait $p
done
echo "start: all ranks exited"
