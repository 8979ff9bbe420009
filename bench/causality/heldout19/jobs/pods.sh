#!/bin/bash
# Starts the "pods" of a PyTorchJob on this machine: job-master-0 is RANK 0 and
# job-worker-i is RANK i+1, as the Kubeflow training operator assigns them.  Each pod's
# container runs entrypoint.sh; its stdout+stderr go to pods/POD.log.
#   usage: pods.sh JOBNAME NWORKERS PORT
job=$1; nw=$2; port=$3
mkdir -p pods
pids=()
start() {  # start POD RANK
    POD_NAME=$1 RANK=$2 WORLD_SIZE=$((nw + 1)) MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
        PYTHONUNBUFFERED=1 bash entrypoint.sh > pods/$1.log 2>&1 &
    pids+=($!)
}
start $job-master-0 0
for i in $(seq 0 $((nw - 1))); do start $job-worker-$i $((i + 1)); done
st=0
for p in "${pids[@]}"; do wait $p || st=1; done
exit $st
