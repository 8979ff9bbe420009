#!/bin/bash
# usage: run_5003.sh LOGFILE
set -u
LOG=$(realpath -m "$1"); cd "$(dirname "$0")"
OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 progress_job.py > "$LOG" 2>&1
echo "exit $?"
