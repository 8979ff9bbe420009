#!/bin/bash
# hand-rolled 4-process launcher; forwards SIGTERM from the scheduler to the workers
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${PORT:-29642} WORLD_SIZE=4 OMP_NUM_THREADS=1
echo $$ > "${PIDFILE:-/tmp/helper37/launcher.pid}"
pids=()
for r in 0 1 2 3; do
  RANK=$r /usr/bin/python3 "$@" &
  pids+=($!)
done
trap 'echo "launcher: caught SIGTERM, stopping workers ${pids[*]}"; kill -TERM "${pids[@]}"; wait; exit 143' TERM
wait
echo "launcher: workers finished"
