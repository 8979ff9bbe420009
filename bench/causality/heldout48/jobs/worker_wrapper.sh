#!/bin/bash
# per-rank wrapper (4802): one log file per worker, like a cluster prolog would do
mkdir -p logs
exec > logs/worker_${RANK}.log 2>&1
echo "[$(date '+%F %T')] worker rank=${RANK} world=${WORLD_SIZE} host=$(hostname) ckpt_dir=${CKPT_DIR}"
exec /usr/bin/python3 -u "$@"
