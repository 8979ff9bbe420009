#!/bin/bash
# usage: bash run.sh ; runs cases via torchrun shim (heldout13/jobs/trun.py), logs to ../
H=$(cd "$(dirname "$0")" && pwd); T=/work/main/bench/causality/heldout13/jobs/trun.py
export OMP_NUM_THREADS=1
MODE=exit3 BAD=2 nice -n 15 timeout 120 /usr/bin/python3 $T --nproc_per_node 4 $H/j33_train.py > $H/../3301-silent-os-exit3-step30.log 2>&1
MODE=segv BAD=1 nice -n 15 timeout 120 /usr/bin/python3 $T --nproc_per_node 4 $H/j33_train.py > $H/../3302-ctypes-null-segv-step30.log 2>&1
