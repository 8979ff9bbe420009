#!/bin/bash
# two fake nodes of 2 workers, one torchrun per node, each node's console to its own file
D=$1; mkdir -p $D
export OMP_NUM_THREADS=1
for n in 0 1; do
  nice -n 15 timeout 120 /usr/bin/python3 jobs/trun.py --redirects 1 --tee 1 --nnodes 2 --node_rank $n --nproc_per_node 2 \
     --master_addr 127.0.0.1 --master_port 30605 jobs/train.py --case struct > $D/node$n.out 2>&1 &
done
wait
