#!/bin/bash
# usage: run_4901.sh OUTLOG   (torchrun_shim.py = stock torchrun + the Std.from_str fix)
cd "$(dirname "$0")"
OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 torchrun_shim.py \
  --nproc_per_node 4 --master_addr 127.0.0.1 --master_port 30201 --tee 3 feat_sync_torchrun.py > "$1" 2>&1
echo "exit $?" >&2
