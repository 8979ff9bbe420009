#!/bin/bash
# usage: run_ansi.sh TYPESCRIPT FAULT PORT   (FAULT = none | rank1); the whole terminal session is kept by script(1)
set -u
TS=$(realpath -m "$1"); FAULT=$2; PORT=$3
cd "$(dirname "$0")"
FAULT=$FAULT OMP_NUM_THREADS=1 nice -n 15 timeout 120 script -q -e -c \
  "/usr/bin/python3 trun.py --nproc_per_node 3 --master_addr 127.0.0.1 --master_port $PORT ansi_job.py" "$TS" > /dev/null
echo "exit $?"
