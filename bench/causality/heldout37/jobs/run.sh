#!/bin/bash
# Re-runs the held-out set 37 jobs from bench/causality/heldout37 (writes the logs into the current dir).
# usage: cd bench/causality/heldout37 && bash jobs/run.sh [3701 3702 ...]
set -u
J=jobs; mkdir -p /tmp/helper37
cases=${*:-3701 3702 3703 3704 3705 3706}
for c in $cases; do case $c in
3701) /usr/bin/python3 $J/prep_shards.py /tmp/helper37/shards
      PORT=29637 nice -n 15 timeout 120 bash $J/launch_loop.sh $J/lm_shards.py > 3701-bash-loop-gru-lm-shards.log 2>&1 ;;
3702) PORT=29638 nice -n 15 timeout 120 bash $J/launch_nohup.sh 3702-nohup-node-files-cnn $J/cnn_nohup.py ;;
3703) rm -rf /tmp/helper37/ckpt
      ( export MASTER_ADDR=127.0.0.1 MASTER_PORT=29639 WORLD_SIZE=4 OMP_NUM_THREADS=1
        printf '%s\n' 0 1 2 3 | nice -n 15 timeout 120 xargs -P 4 -I{} env RANK={} /usr/bin/python3 $J/mlp_ckpt_xargs.py > 3703-xargs-regressor-optim-shards.log 2>&1 )
      sleep 10 ;;  # xargs exits on the signal-killed child; the orphaned ranks keep writing for a few s
3704) ( export MASTER_ADDR=127.0.0.1 MASTER_PORT=29640 WORLD_SIZE=4 OMP_NUM_THREADS=1
        nice -n 15 timeout 120 parallel --tag --line-buffer -j4 "RANK={} timeout 60 /usr/bin/python3 $J/ranker_parallel.py" ::: 0 1 2 3 > 3704-gnu-parallel-query-ranker.log 2>&1 ) ;;
3705) /usr/bin/python3 $J/prep_features.py /tmp/helper37/features
      OMP_NUM_THREADS=1 MASTER_PORT=29641 nice -n 15 timeout 120 /usr/bin/python3 $J/churn_spawn_json.py > 3705-spawn-jsonl-churn-partitions.log 2>&1 ;;
3706) rm -f /tmp/helper37/launcher.pid
      PORT=29642 nice -n 15 timeout 120 script -q -e -c "bash $J/launch_trap.sh $J/textcls_healthy.py" 3706-script-capture-textcls-cancel.log > /dev/null 2>&1 &
      sleep 22; kill -TERM "$(cat /tmp/helper37/launcher.pid)"; wait ;;
esac; done
