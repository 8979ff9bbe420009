#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29614 WORLD_SIZE=3
for r in 0 1 2; do
    RANK=$r LOCAL_RANK=$r /usr/bin/python3 train.py &
done
wait
