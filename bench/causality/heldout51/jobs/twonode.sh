#!/bin/bash
# (--redirects 3 trips a Std-enum bug on Python 3.11, hence 1 + tee 2)
# two fake "nodes" on this host, one torchrun agent each, static rendezvous on 127.0.0.1
# usage: twonode.sh SCRIPT OUTDIR PORT
S=$1; OUT=$2; PORT=$3
mkdir -p $OUT
for n in 0 1; do
  OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 -m torch.distributed.run \
    --nnodes 2 --node_rank $n --nproc_per_node 2 --master_addr 127.0.0.1 --master_port $PORT \
    --max_restarts 0 --redirects 1 --tee 2 --log_dir $OUT/node$n $S > $OUT/node$n.console.txt 2>&1 &
done
wait
