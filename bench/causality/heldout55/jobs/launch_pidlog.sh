#!/bin/bash
# own launcher: launcher.log maps pids to ranks; all workers append to one train.log
D=$1; mkdir -p $D; : > $D/train.log; : > $D/launcher.log
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30603 WORLD_SIZE=4 OMP_NUM_THREADS=1
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r nice -n 15 /usr/bin/python3 -u jobs/train.py --case logpid >> $D/train.log 2>&1 &
  pids+=($!)
  echo "$(date -u '+%F %T') launcher: started worker $r/4 pid $!" >> $D/launcher.log
done
( sleep 100; kill ${pids[@]} 2>/dev/null ) &   # safety net
wd=$!
for i in 0 1 2 3; do
  wait ${pids[$i]}; rc=$?
  echo "$(date -u '+%F %T') launcher: pid ${pids[$i]} exited rc=$rc" >> $D/launcher.log
done
kill $wd 2>/dev/null
