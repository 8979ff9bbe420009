#!/bin/bash
# Re-run the jobs of held-out set 48 into /tmp/helper48/cNNNN (run one at a time). Usage: bash jobs/run.sh [4801 ...]
J=/work/main/bench/causality/heldout48/jobs
cases=${@:-4801 4802 4803 4804 4805}
for c in $cases; do
  d=/tmp/helper48/c$c; rm -rf $d; mkdir -p $d; cd $d
  case $c in
    4801) OMP_NUM_THREADS=1 nice -n 15 timeout 120 /usr/bin/python3 $J/spawn_segv_embed.py > console.log 2>&1 ;;
    4802) bash $J/launch_4802.sh $d > launcher.out 2>&1 ;;   # needs root (mounts a 256 KiB tmpfs)
    4803) nice -n 15 timeout 120 /usr/bin/python3 $J/mp_seqtag_memlimit.py > out.log 2>&1 ;;
    4804) bash $J/launch_4804.sh $d > console.out 2>&1 ;;
    4805) bash $J/launch_4805.sh $d > launcher.out 2>&1 ;;
  esac
  echo "$c rc=$? -> $d"
done
