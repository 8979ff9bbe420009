#!/bin/bash
# one background process per rank (one "node" each), one log file per rank; then wait for
# each and report its exit status
export MASTER_ADDR=127.0.0.1 WORLD_SIZE=4
mkdir -p logs
nodes=(fc-n01 fc-n02 fc-n03 fc-n04)
pids=()
for r in 0 1 2 3; do
    NODE_NAME=${nodes[$r]} RANK=$r /usr/bin/python3 -u train.py > logs/${nodes[$r]}.log 2>&1 &
    pids+=($!)
done
echo "$(date +%T) started ${#pids[@]} ranks"
for r in 0 1 2 3; do
    wait ${pids[$r]}
    st=$?
    echo "$(date +%T) ${nodes[$r]} exit $st"
done
