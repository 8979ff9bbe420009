#!/bin/bash
# usage: run_4902.sh CASEDIR  -> CASEDIR/console.log + CASEDIR/torchrun_logs/<run_id>/attempt_0/N/{stdout,stderr}.log
cd "$(dirname "$0")"
mkdir -p "$1"
OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 torchrun_shim.py \
  --nproc_per_node 4 --master_addr 127.0.0.1 --master_port 30202 --redirects 3 --log_dir "$1/torchrun_logs" \
  vocab_check_torchrun.py > "$1/console.log" 2>&1
echo "exit $?" >&2
