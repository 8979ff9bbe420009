#!/bin/bash
# bash loop launcher; each process writes its own logging file logs/worker-<pid>.log
cd "$(dirname "$0")/../5301-stats-gather-worker-logs" || exit 1
rm -rf logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30501 WORLD_SIZE=4 OMP_NUM_THREADS=1
for r in 0 1 2 3; do RANK=$r nice -n 15 timeout 120 /usr/bin/python3 ../jobs/gather_stats.py 2>/dev/null & done
wait
