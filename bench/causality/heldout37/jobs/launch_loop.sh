#!/bin/bash
# start 4 workers by hand, no torchrun
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${PORT:-29637} WORLD_SIZE=4 OMP_NUM_THREADS=1
for r in 0 1 2 3; do
  RANK=$r /usr/bin/python3 "$@" &
done
wait
echo "all workers exited"
