#!/bin/bash
# launcher reads jobs/cluster_5303.conf, prints the name/rank/log table, one log file per worker name
cd "$(dirname "$0")/.." || exit 1
D=5303-calib-prior-named-logs; rm -rf $D; mkdir -p $D/logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30503 WORLD_SIZE=4 OMP_NUM_THREADS=1
{
echo "launch $(date '+%F %T') world_size=$WORLD_SIZE master=$MASTER_ADDR:$MASTER_PORT"
printf '%-10s %-5s %s\n' worker rank log
grep -v '^#' jobs/cluster_5303.conf | while read name r; do printf '%-10s %-5s %s\n' "$name" "$r" "logs/$name.log"; done
while read name r; do
  RANK=$r nice -n 15 timeout 120 /usr/bin/python3 jobs/trainer.py --mode dtype --logfile $D/logs/$name.log &
done < <(grep -v '^#' jobs/cluster_5303.conf)
wait
echo "all workers exited $(date '+%F %T')"
} > $D/launch.log 2>&1
