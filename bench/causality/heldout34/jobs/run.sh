#!/bin/bash
# Re-runs the heldout34 jobs: bash jobs/run.sh [3401 ...]   (from bench/causality/heldout34)
# Every job: 4 ranks under Open MPI 4.1 mpirun, Debian torch 1.13 CPU, gloo on 127.0.0.1.
set -u
cd "$(dirname "$0")/.."
J=jobs
MPI="nice -n 15 timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4 -x OMP_NUM_THREADS=1"
PY=/usr/bin/python3
run() {
  case "$1" in
    3401) $MPI --tag-output $PY $J/curriculum_mix.py > 3401-curriculum-mix-stage-switch.log 2>&1 ;;
    3402) $MPI --timestamp-output $PY $J/robust_ft.py > 3402-adamw-finetune-killed-worker.log 2>&1 ;;
    3403) rm -rf 3403-remote-shard-reader-stall && mkdir -p 3403-remote-shard-reader-stall
          $MPI --output-filename 3403-remote-shard-reader-stall/mpi_out $PY $J/shard_reader.py \
            > 3403-remote-shard-reader-stall/console.log 2>&1 ;;
    3404) $MPI $PY $J/periodic_ckpt.py --ckpt /dev/full > 3404-periodic-checkpoint-save.log 2>&1 ;;
    3405) $MPI --merge-stderr-to-stdout --tag-output $PY $J/early_stop.py > 3405-validation-early-exit.log 2>&1 ;;
    3406) $MPI --tag-output --timestamp-output $PY $J/warmup_sched.py > 3406-warmup-scheduler-healthy.log 2>&1 ;;
  esac
  echo "$1 exit=$?"
}
if [ $# -eq 0 ]; then set -- 3401 3402 3403 3404 3405 3406; fi
for c in "$@"; do run "$c"; done
