#!/bin/bash
# Re-runs the held-out 46 jobs. Usage: cd bench/causality/heldout46 && bash jobs/run.sh [4601 ...]
# Writes the case logs into the set folder (overwrites them).
set -u
SET=$(cd "$(dirname "$0")/.." && pwd)
J=$SET/jobs
export OMP_NUM_THREADS=1
PY=/usr/bin/python3
TRS="$PY $J/trun.py"                # torchrun shim, see trun.py
RUN="nice -n 15 timeout 90"
cases=${*:-"4601 4602 4603 4604 4605"}
for c in $cases; do
  echo "=== $c $(date -u +%T)"
  case $c in
  4601)
    ( export MASTER_ADDR=127.0.0.1 MASTER_PORT=29951 WORLD_SIZE=3
      for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $RUN $PY $J/diverge_adapter.py & done
      wait ) > "$SET/4601-adapter-rank-format-diverged.log" 2>&1
    echo "done";;
  4602)
    $RUN $TRS --nnodes 1 --nproc_per_node 3 --master_addr 127.0.0.1 --master_port 29952 \
      --redirects 3 --tee 3 "$J/profiled_step.py" > "$SET/4602-hf-logger-record-function.log" 2>&1
    echo "rc=$?";;
  4603)
    $PY $J/prep_ckpt_4603.py
    ( export MASTER_ADDR=127.0.0.1 MASTER_PORT=29953 WORLD_SIZE=3
      for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $RUN $PY $J/resume_print.py & done
      wait ) > "$SET/4603-print-prefix-resume-unpickling.log" 2>&1
    echo "done";;
  4604)
    $RUN $TRS --nnodes 1 --nproc_per_node 3 --master_addr 127.0.0.1 --master_port 29954 \
      "$J/nested_transform.py" > "$SET/4604-rankfilter-progress-recursion.log" 2>&1
    echo "rc=$?";;
  4605)
    mkdir -p /tmp/helper46
    ( export MASTER_ADDR=127.0.0.1 MASTER_PORT=29955 WORLD_SIZE=3
      for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $RUN $PY $J/healthy_retry.py & done
      wait; echo "all ranks exited" ) > "$SET/4605-rankfilter-error-retries-healthy.log" 2>&1
    echo "done";;
  esac
done
