#!/bin/bash
# Start script for the 4-rank job: one background process per rank under nohup, each with
# its own train.N.out.  Each rank is started with its node's shell profile (profiles/NODE.sh),
# as a login shell on that node would have it.
PY=/usr/bin/python3
NODES=(cn01 cn02 cn03 cn04)
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-30202} WORLD_SIZE=4
mkdir -p logs
pids=()
for r in 0 1 2 3; do
    node=${NODES[$r]}
    RANK=$r LOCAL_RANK=0 NODE=$node nohup bash -c ". profiles/$node.sh; exec $PY -u train.py" \
        > logs/train.$r.out 2>&1 &
    pids+=($!)
    echo "$(date '+%F %T') started rank $r on $node pid ${pids[$r]}"
done
for r in 0 1 2 3; do
    wait ${pids[$r]}
    st=$?
    echo "$(date '+%F %T') rank $r pid ${pids[$r]} exited with status $st"
done
