#!/bin/bash
# control: same job as 4802 (3 ranks by hand, per-worker log files), every scratch dir healthy
cd "$1"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30056 WORLD_SIZE=3 OMP_NUM_THREADS=1
J=/work/main/bench/causality/heldout48/jobs
mkdir -p scratch/n0 scratch/n1 scratch/n2
for r in 0 1 2; do
  RANK=$r CKPT_DIR=scratch/n$r nice -n 15 timeout 120 bash $J/worker_wrapper.sh $J/ranker_ckpt.py &
done
wait
