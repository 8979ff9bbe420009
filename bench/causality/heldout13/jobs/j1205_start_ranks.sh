#!/bin/bash
# start one python per rank on this box; each rank's output also goes to logs/rankN.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29805} WORLD_SIZE=3
mkdir -p logs
for r in 0 1 2; do
    RANK=$r LOCAL_RANK=$r /usr/bin/python3 -u train.py 2>&1 | tee logs/rank$r.out &
done
wait
echo "all ranks done"
