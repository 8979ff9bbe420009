#!/bin/bash
# legacy launcher (argparse --local_rank), healthy job; after 12 s the operator sends SIGINT to the job's whole process group
OUT=$1
export OMP_NUM_THREADS=1
setsid nice -n 15 timeout 120 /usr/bin/python3 jobs/trun.py --module torch.distributed.launch --nproc_per_node 3 --master_port 30606 jobs/train.py --case healthy --steps 200 > $OUT 2>&1 &
pid=$!
sleep 12
kill -INT -- -$pid
wait $pid
echo "exit status $?" >&2
