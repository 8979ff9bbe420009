#!/bin/bash
# re-run the jobs of set 51: cd bench/causality/heldout51 && bash jobs/run.sh [5101 ...]
cd "$(dirname "$0")/.."
C=${@:-5101 5102 5103 5104 5105 5106}
for c in $C; do case $c in
5101) OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 jobs/plaunch.py --nproc 4 --port 30401 jobs/uneven.py > 5101-uneven-shard-tagged-launcher.log 2>&1 ;;
5102) rm -rf 5102-two-node-logdir-slow-eval; bash jobs/twonode.sh jobs/longeval.py 5102-two-node-logdir-slow-eval 30411 ;;
5103) nice -n 15 timeout 120 bash jobs/launch_bg.sh jobs/nanloss.py 30420 4 > 5103-asctime-pid-nonfinite-loss.log 2>&1 ;;
5104) rm -rf 5104-xargs-per-rank-files; nice -n 15 timeout 120 bash jobs/launch_xargs.sh jobs/workerbus.py 30430 5104-xargs-per-rank-files ;;
5105) OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 jobs/plaunch.py --nproc 3 --port 30440 --tag '(rank {r}) ' jobs/healthy.py > 5105-healthy-warnings-paren-tag.log 2>&1 ;;
5106) OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 jobs/plaunch.py --nproc 4 --port 30450 --rlimit-as-gb 6 --tag '[worker-{r}] ' jobs/bigalloc.py > 5106-rlimit-as-cache-bracket-tag.log 2>&1 ;;
esac; done
