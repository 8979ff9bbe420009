#!/bin/bash
# bash launcher console captured by script(1); a separate watcher SIGTERMs one worker from outside
cd "$(dirname "$0")/.." || exit 1
rm -rf /tmp/hx53/pids; mkdir -p /tmp/hx53/pids
export OMP_NUM_THREADS=1
bash jobs/preempt_watcher.sh > /dev/null 2>&1 &
script -q -e -c "bash jobs/launch_loop.sh 30504 --mode preempt" 5304-preempted-worker-typescript.log > /dev/null
wait
