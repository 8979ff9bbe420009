#!/bin/bash
# Re-run the heldout38 jobs: bash jobs/run.sh [3801 3802 ...]   (outputs go to /tmp/heldout38-rerun/<case>/)
# Every agent is jobs/node.sh HOST RDZV PORT SCRIPT [torchrun args]: nice -n 15 timeout 120, torchrun shim,
# --nnodes=2 --nproc_per_node=2 --node_rank=0 (gpu-a01) / 1 (gpu-a02), rendezvous on 127.0.0.1.
J=$(cd "$(dirname "$0")" && pwd)
OUT=/tmp/heldout38-rerun
cases=${*:-3801 3802 3803 3804 3805 3806}
for c in $cases; do
  mkdir -p $OUT/$c && cd $OUT/$c || exit 1
  case $c in
    3801) $J/node.sh gpu-a01 static 29781 tabular_churn.py > gpu-a01.log 2>&1 &
          $J/node.sh gpu-a02 static 29781 tabular_churn.py > gpu-a02.log 2>&1 & wait ;;
    3802) pdsh -R exec -w gpu-a01,gpu-a02 $J/node.sh %h c10d 29782 rec_ctr.py > console.log 2>&1 &
          sleep 14; P=$($J/find_worker.sh rec_ctr.py 2); echo "kill -9 $P" > kill.txt; kill -9 $P; wait ;;
    3803) parallel --tag --line-buffer -j2 $J/node.sh {} static 29783 seq_forecast.py ::: gpu-a01 gpu-a02 > console.log 2>&1 ;;
    3804) $J/node.sh gpu-a01 static 29784 text_bow.py > gpu-a01.log 2>&1 &
          $J/node.sh gpu-a02 static 29784 text_bow.py --tee 3 > gpu-a02.log 2>&1 & wait ;;
    3805) pdsh -R exec -w gpu-a01,gpu-a02 $J/node.sh %h c10d 29785 vision_tiny.py > console.log 2>&1 ;;
    3806) $J/node.sh gpu-a01 c10d 29786 speech_kws.py > gpu-a01.log 2>&1 &
          $J/node.sh gpu-a02 c10d 29786 speech_kws.py > gpu-a02.log 2>&1 &
          sleep 16
          # as in the recorded run: matches both the `timeout` wrappers and the python agents
          for p in $(pgrep -f "trun.py --nnodes=2 .*jobs/speech_kws.py"); do kill -TERM $p; done; wait ;;
  esac
done
