#!/bin/bash
# xargs -P launcher, one output file per rank: launch_xargs.sh SCRIPT PORT OUTDIR
mkdir -p $3
printf '0\n1\n2\n3\n' | xargs -P 4 -I{} sh -c "RANK={} WORLD_SIZE=4 MASTER_ADDR=127.0.0.1 MASTER_PORT=$2 OMP_NUM_THREADS=1 /usr/bin/python3 $1 > $3/out.{}.txt 2>&1"
echo "xargs exit $?"
