#!/bin/bash
# Re-run the jobs of set 42 (overwrites the case files). Usage: cd bench/causality/heldout42 && bash jobs/run.sh [4201 4202 4203]
set -u
cases="${*:-4201 4202 4203}"
export OMP_NUM_THREADS=1
for c in $cases; do
  case $c in
    4201) nice -n 15 timeout 120 /usr/bin/python3 jobs/spawn_sentinel_4201.py > 4201-spawn-sentinel-softclip.log 2>&1 ;;
    4202) DRIFT=0 nice -n 15 timeout 120 /usr/bin/python3 jobs/spawn_sentinel_4202.py > 4202-spawn-sentinel-caught-export.log 2>&1 ;;
    4203) nice -n 15 timeout 120 /usr/bin/python3 jobs/spawn_sentinel_4203.py > 4203-spawn-sentinel-sampler-sync.log 2>&1 ;;
  esac
  echo "$c rc=$?"
done
