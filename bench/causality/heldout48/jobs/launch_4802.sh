#!/bin/bash
# 3 ranks started by hand with env vars; node-local scratch per rank.
# rank 1's scratch is a 256 KiB tmpfs almost filled by an old run's file (full local disk).
cd "$1"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30052 WORLD_SIZE=3 OMP_NUM_THREADS=1
J=/work/main/bench/causality/heldout48/jobs
mkdir -p scratch/n0 scratch/n1 scratch/n2
mountpoint -q scratch/n1 || mount -t tmpfs -o size=256k tmpfs scratch/n1
head -c 240000 /dev/urandom > scratch/n1/optim-shard-01-step0410.pkl.old 2>/dev/null || true
for r in 0 1 2; do
  RANK=$r CKPT_DIR=scratch/n$r nice -n 15 timeout 120 bash $J/worker_wrapper.sh $J/ranker_ckpt.py &
done
wait
umount scratch/n1
