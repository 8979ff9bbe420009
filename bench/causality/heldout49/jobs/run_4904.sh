#!/bin/bash
# usage: run_4904.sh OUTLOG
cd "$(dirname "$0")"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30204 OMP_NUM_THREADS=1
{
echo "launching master"
RANK=0 nice -n 15 timeout 120 /usr/bin/python3 ctr_train.py &
sleep 1
echo "launching workers"
for r in 1 2 3; do
  RANK=$r WORLD_SIZE=4 nice -n 15 timeout 120 /usr/bin/python3 ctr_train.py &
done
wait
echo "done"
} > "$1" 2>&1
