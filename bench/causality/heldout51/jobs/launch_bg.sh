#!/bin/bash
# plain bash background launcher, all ranks into one stream: launch_bg.sh SCRIPT PORT NPROC
for r in $(seq 0 $(($3-1))); do
  RANK=$r WORLD_SIZE=$3 MASTER_ADDR=127.0.0.1 MASTER_PORT=$2 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 \
    /usr/bin/python3 $1 &
done
wait
