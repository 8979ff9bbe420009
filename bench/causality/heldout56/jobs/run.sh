#!/bin/bash
# re-run heldout56 jobs: cd bench/causality/heldout56 && bash jobs/run.sh [5601 ...]
set -u
cd "$(dirname "$0")/.."
J=jobs; PY=/usr/bin/python3; export OMP_NUM_THREADS=1
TR="$PY $J/torchrun.py"
[ -d /tmp/helper56/data ] || $PY $J/prep.py
cases=${@:-5601 5602 5603 5604 5605 5606}
for c in $cases; do case $c in
5601) # two fake nodes, each its own torchrun (static rendezvous), console of each saved
  D=5601-two-node-churn-csv; rm -rf $D; mkdir -p $D
  for n in 0 1; do
    NODE_NAME=node$n nice -n 15 timeout 120 $TR --nnodes 2 --node_rank $n --nproc_per_node 2 \
      --master_addr 127.0.0.1 --master_port 30651 $J/train.py --job csvfield > $D/node$n.console 2>&1 &
  done; wait ;;
5602) # single torchrun, --tee 3
  TRAIN_SHARD_GRADS=0 nice -n 15 timeout 120 $TR --nproc_per_node 4 --master_port 30652 --tee 3 --no_python \
    $J/rscatter_wrap.sh > 5602-torchrun-tee-grad-sync.log 2>&1 ;;
5603) # bash loop; per-rank CSV metrics on stdout, shared stderr file
  D=5603-csv-metrics-gz-shards; rm -rf $D; mkdir -p $D
  export MASTER_ADDR=127.0.0.1 MASTER_PORT=30653 WORLD_SIZE=4
  for r in 0 1 2 3; do RANK=$r nice -n 15 timeout 120 $PY $J/train.py --job gz --fmt csv > $D/metrics-$r.csv 2>> $D/job.err & done
  wait; echo "launcher: all workers exited" >> $D/job.err ;;
5604) # plain torchrun, logging with pid only
  nice -n 15 timeout 120 $TR --nproc_per_node 3 --master_port 30654 $J/train.py --job leaf --fmt log > 5604-torchrun-pid-logging-regressor.log 2>&1 ;;
5605) # control: same as 5603, healthy data, ends normally
  D=5605-csv-metrics-gz-shards-b; rm -rf $D; mkdir -p $D
  export MASTER_ADDR=127.0.0.1 MASTER_PORT=30655 WORLD_SIZE=4
  for r in 0 1 2 3; do RANK=$r nice -n 15 timeout 120 $PY $J/train.py --job gzok --fmt csv --data /tmp/helper56/dataok > $D/metrics-$r.csv 2>> $D/job.err & done
  wait; echo "launcher: all workers exited" >> $D/job.err ;;
5606) # control: two fake nodes as in 5601, random data, no fault; ends normally
  D=5606-two-node-churn-b; rm -rf $D; mkdir -p $D
  for n in 0 1; do
    NODE_NAME=node$n nice -n 15 timeout 120 $TR --nnodes 2 --node_rank $n --nproc_per_node 2 \
      --master_addr 127.0.0.1 --master_port 30656 $J/train.py --job ok > $D/node$n.console 2>&1 &
  done; wait ;;
esac; done
