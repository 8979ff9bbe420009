#!/bin/bash
# usage: run_4905.sh OUTLOG
cd "$(dirname "$0")"
OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 seqenc_train.py > "$1" 2>&1
echo "exit $?" >&2
