#!/bin/bash
# One emulated node: node.sh HOST RDZV PORT SCRIPT [extra torchrun args...]
#   HOST  gpu-a01 -> node_rank 0, gpu-a02 -> node_rank 1
#   RDZV  static | c10d   (both on 127.0.0.1:PORT)
HOST=$1; RDZV=$2; PORT=$3; SCRIPT=$4; shift 4
case "$HOST" in gpu-a01) NR=0;; gpu-a02) NR=1;; *) echo "unknown host $HOST"; exit 2;; esac
export NODE_HOST=$HOST OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
HERE=$(cd "$(dirname "$0")" && pwd)
TRUN=/work/main/bench/causality/heldout13/jobs/trun.py
if [ "$RDZV" = c10d ]; then
  R="--rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:$PORT --rdzv_id=job$PORT"
else
  R="--master_addr=127.0.0.1 --master_port=$PORT"
fi
exec nice -n 15 timeout 120 /usr/bin/python3 $TRUN --nnodes=2 --nproc_per_node=2 --node_rank=$NR $R "$@" "$HERE/$SCRIPT"
