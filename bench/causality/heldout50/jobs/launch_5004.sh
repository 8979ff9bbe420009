#!/bin/bash
# 5004 launcher: 4 workers in the background, an RSS watchdog that SIGKILLs any worker above 600 MB,
# then wait for every worker and report its exit status by pid.
cd "$(dirname "$0")"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30304 WORLD_SIZE=4 OMP_NUM_THREADS=1
pids=()
for r in 0 1 2 3; do
  RANK=$r /usr/bin/python3 pid_job.py &
  pids+=($!)
  echo "$(date '+%F %T') launcher: started worker $! (rank $r/4)"
done
( while sleep 0.5; do
    for p in "${pids[@]}"; do
      rss=$(ps -o rss= -p "$p" 2>/dev/null | tr -d ' ')
      if [ -n "$rss" ] && [ "$rss" -gt 614400 ]; then
        echo "$(date '+%F %T') watchdog: pid $p rss ${rss} kB > 614400 kB limit, sending SIGKILL"
        kill -9 "$p"
      fi
    done
  done ) &
wd=$!
rc=0
for p in "${pids[@]}"; do
  wait "$p"; s=$?
  echo "$(date '+%F %T') launcher: worker $p exited with status $s"
  [ $s -ne 0 ] && rc=1
done
kill $wd
echo "$(date '+%F %T') launcher: job finished, rc=$rc"
exit $rc
