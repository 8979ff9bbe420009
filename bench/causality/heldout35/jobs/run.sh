#!/bin/bash
# Re-run held-out set 35 jobs: bash jobs/run.sh [3501 3502 ...]
# Each job runs in a scratch dir under $WORK (default /tmp/helper35); outputs are copied into
# the case file/folder next to this script's parent dir.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); OUTD=$(dirname "$HERE"); WORK=${WORK:-/tmp/helper35}
PY=/usr/bin/python3; TRUN="$PY /work/main/bench/causality/heldout13/jobs/trun.py"
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
cases=${*:-"3501 3502 3503 3504 3505 3506"}
for c in $cases; do
  d=$WORK/run$c; rm -rf "$d"; mkdir -p "$d"; cd "$d"
  case $c in
  3501) # per-rank log files + launcher console; stale shard symlink to /dev/full for rank 2
    mkdir -p ckpt/step_0012 && ln -s /dev/full ckpt/step_0012/shard_02.pt
    nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29651 $HERE/j3501_shard_ckpt_save.py > console.log 2>&1
    o=$OUTD/3501-sharded-optimizer-ckpt-logs; rm -rf "$o"; mkdir -p "$o"; cp console.log "$o/"; cp -r logs "$o/" ;;
  3502) # first run writes per-rank checkpoints (setup, log kept in scratch), then strip one entry
    nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29652 $HERE/j3502_resume_state.py --steps 6 > setup_first_run.log 2>&1
    $PY -c "import torch; p='resume/checkpoint-rank1.pth'; ck=torch.load(p); del ck['optimizer']; torch.save(ck, p)"
    nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29653 --tee 3 $HERE/j3502_resume_state.py --resume --steps 10 > resume.log 2>&1
    cp resume.log $OUTD/3502-cnn-resume-tee.log ;;
  3503)
    PORT=29654 nice -n 15 timeout 120 $PY $HERE/j3503_spawn_rendezvous.py > out.log 2>&1
    cp out.log $OUTD/3503-spawn-regressor-startup.log ;;
  3504)
    nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29656 $HERE/j3504_val_confusion.py > out.log 2>&1
    cp out.log $OUTD/3504-text-features-validation.log ;;
  3505) # control: SIGINT to the launcher from outside after 20 s
    nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29657 $HERE/j3505_cancel_healthy.py > console.log 2>&1 &
    bg=$!; sleep 20; kill -INT $(pgrep -P $bg); wait $bg  # SIGINT to the torchrun process itself (child of timeout)
    o=$OUTD/3505-autoencoder-interrupted-logs; rm -rf "$o"; mkdir -p "$o"; cp console.log "$o/"; cp -r logs "$o/" ;;
  3506)
    nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29658 $HERE/j3506_final_test_shards.py > out.log 2>&1
    cp out.log $OUTD/3506-seqcls-final-test.log ;;
  esac
  echo "case $c done (rc of last step: $?)"
done
