#!/bin/bash
# every rank started with nohup from the same directory: all append to ./nohup.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$1 WORLD_SIZE=3 OMP_NUM_THREADS=1; shift
for r in 0 1 2; do RANK=$r nohup nice -n 15 timeout 120 /usr/bin/python3 ../jobs/trainer.py "$@" & done
wait
