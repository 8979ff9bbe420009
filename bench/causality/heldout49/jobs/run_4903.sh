#!/bin/bash
# usage: run_4903.sh CASEDIR -> CASEDIR/train-rank{0..3}.log (written by each rank's logging) + CASEDIR/launch.out
cd "$(dirname "$0")"
mkdir -p "$1"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30203 WORLD_SIZE=4 OMP_NUM_THREADS=1
{
for r in 0 1 2 3; do
  RANK=$r nice -n 15 timeout 120 /usr/bin/python3 intent_loader_shell.py "$1/train-rank$r.log" &
  echo "started rank $r pid $!"
done
wait
echo "all ranks exited"
} > "$1/launch.out" 2>&1
