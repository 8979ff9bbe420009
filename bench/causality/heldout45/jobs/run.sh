#!/bin/bash
# Re-runs the held-out 45 jobs; run from bench/causality/heldout45: bash jobs/run.sh [4501 ...]
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
SHIM=jobs/elshim.py
export OMP_NUM_THREADS=1
cases="${@:-4501 4502 4503 4504 4505 4506}"
for c in $cases; do case $c in
4501) nice -n 15 timeout 90 $PY $SHIM torch.distributed.launch --use_env --nproc_per_node 4 --master_addr 127.0.0.1 --master_port 29901 jobs/negsample_busy.py > 4501-recsys-negative-sampler-spin.log 2>&1 ;;
4502) nice -n 15 timeout 90 $PY $SHIM torch.distributed.launch --nproc_per_node 4 --master_addr 127.0.0.1 --master_port 29902 jobs/manual_allreduce_fp64.py --steps 30 > 4502-launch-argv-grad-average-fp64.log 2>&1 ;;
4503) nice -n 15 timeout 90 $PY $SHIM torch.distributed.run --nnodes=1:2 --nproc_per_node=4 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:29903 --rdzv_id=digits-cnn-45 --rdzv_conf last_call_timeout=3 jobs/snapshot_destroy.py > 4503-elastic-cnn-snapshot-helper.log 2>&1 ;;
4504) nice -n 15 timeout 90 $PY $SHIM torch.distributed.run --rdzv_backend=static --master_addr=127.0.0.1 --master_port=29904 --nnodes=1 --node_rank=0 --nproc_per_node=4 jobs/bucket_sampler.py > 4504-static-bucket-sampler-curriculum.log 2>&1 ;;
4505) mkdir -p /tmp/helper45/metrics; METRICS_DIR=/tmp/helper45/metrics nice -n 15 timeout 90 $PY $SHIM torch.distributed.launch --use_env --nproc_per_node=3 --master_addr=127.0.0.1 --master_port=29905 jobs/metrics_env.py > 4505-launch-env-gru-metrics-export.log 2>&1 ;;
4506) nice -n 15 timeout 90 $PY $SHIM torch.distributed.run --nnodes=1:2 --nproc_per_node=4 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:29906 --rdzv_id=probe-45 --rdzv_conf last_call_timeout=3 jobs/healthy_warnings.py > 4506-elastic-probe-healthy-warnings.log 2>&1 ;;
esac; done
