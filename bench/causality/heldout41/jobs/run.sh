#!/bin/bash
# Re-runs the held-out 41 jobs. Usage: cd bench/causality/heldout41 && bash jobs/run.sh [4101 ...]
# Writes the case logs into the set folder (overwrites them).
set -u
SET=$(cd "$(dirname "$0")/.." && pwd)
J=$SET/jobs
export OMP_NUM_THREADS=1
TR="/usr/bin/python3 -m torch.distributed.run"   # stock; needs --redirects/--tee in {1,2} on py3.11
TRS="/usr/bin/python3 $J/trun.py"                # shim, see trun.py
RUN="nice -n 15 timeout 120"
cases=${*:-"4101 4102 4103 4104 4105 4106 4107"}
for c in $cases; do
  echo "=== $c $(date -u +%T)"
  case $c in
  4101)
    D=$SET/4101-tabular-watchdog-logdir; rm -rf "$D"; mkdir -p "$D"
    $RUN $TR --nnodes 1 --nproc_per_node 4 --master_addr 127.0.0.1 --master_port 29701 \
      --rdzv_id feat-reg-0412 --log_dir "$D/logs" --redirects 2 --tee 2 \
      "$J/tabular_watchdog.py" > "$D/console.log" 2>&1
    echo "rc=$?";;
  4102)
    /usr/bin/python3 "$J/prep_shards_4102.py"
    $RUN $TRS --nnodes 1 --nproc_per_node 4 --max_restarts=1 --rdzv_backend c10d \
      --rdzv_endpoint 127.0.0.1:29702 --rdzv_id lm-bag-7 \
      "$J/lm_restart.py" > "$SET/4102-restart-lm-second-shard.log" 2>&1
    echo "rc=$?";;
  4103)
    /usr/bin/python3 "$J/prep_records_4103.py"
    $RUN $TRS --nproc_per_node 4 --master_port 29703 --tee 1 \
      "$J/ctr_records.py" > "$SET/4103-ctr-records-loader-tee-stdout.log" 2>&1
    echo "rc=$?";;
  4104)
    LOGLEVEL=INFO $RUN $TRS --nproc_per_node 4 --master_port 29704 --monitor_interval 1 \
      "$J/seg_eval.py" > "$SET/4104-seg-eval-rank-loglevel-info.log" 2>&1
    echo "rc=$?";;
  4105)
    W=/tmp/helper41/4105; rm -rf $W; mkdir -p $W
    for n in 0 1; do
      $RUN $TRS --nnodes=2 --nproc_per_node=2 --node_rank=$n --master_addr 127.0.0.1 \
        --master_port 29705 "$J/gnn_twonode.py" > $W/node$n.log 2>&1 &
    done
    wait
    cat $W/node0.log $W/node1.log > "$SET/4105-two-agent-gnn-cat.log"
    echo "done";;
  4106)
    set -m
    $RUN $TRS --nproc_per_node 4 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:29706 \
      "$J/healthy_ae.py" > "$SET/4106-healthy-ae-agent-sigint.log" 2>&1 &
    T=$!
    sleep 25
    # the torchrun agent is the python child of nice/timeout (nice execs, timeout forks)
    A=$(pgrep -P $T -f trun.py)
    echo "sending SIGINT to agent pid $A"
    kill -INT $A
    wait $T; echo "rc=$?"
    set +m;;
  4107)
    D=$SET/4107-retrieval-logdir-full-tree; rm -rf "$D"; mkdir -p "$D"
    $RUN $TRS --nnodes 1 --nproc_per_node 4 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:29707 --log_dir "$D/torchelastic" --redirects 3 --tee 3 \
      "$J/retrieval_eval_swallow.py" > "$D/torchrun-console.txt" 2>&1
    echo "rc=$?";;
  esac
done
