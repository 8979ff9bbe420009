#!/bin/bash
# Re-runs the jobs of held-out set 29 (Debian python3-torch 1.13, CPU, gloo).
# Usage: bash run.sh [case ...]   e.g. bash run.sh 2901 2905   (default: all)
# Every job runs under nice -n 15 with at most 4 ranks and a timeout.
set -u
J=$(cd "$(dirname "$0")" && pwd)
OUTD=$(dirname "$J")
TRUN=/work/main/bench/causality/heldout13/jobs/trun.py   # torchrun shim (unchanged)
LAUNCH=$J/launch_shim.py                                  # same fix, for torch.distributed.launch
PY=/usr/bin/python3
S=/tmp/helper29
export OMP_NUM_THREADS=1
mkdir -p "$S"
cd "$S"

c2901() {  # plain torchrun, combined stream
  rm -rf $S/clipidx
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29601 \
    $J/j2901_audio_worker_init.py > $OUTD/2901-audio-clips-worker-init.log 2>&1
}
c2902() {  # torchrun --tee 3 --log_dir: console + per-rank files
  local d=$OUTD/2902-gan-hard-batch-tee; rm -rf $S/ld2902 $d; mkdir -p $d
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29602 --tee 3 --log_dir $S/ld2902 \
    $J/j2902_gan_double_backward.py > $d/console.log 2>&1
  for r in 0 1 2 3; do for s in stdout stderr; do
    cp $S/ld2902/*/attempt_0/$r/$s.log $d/rank$r.$s.log; done; done
}
c2903() {  # torchrun --redirects 3 --log_dir: console + per-rank files
  local d=$OUTD/2903-lr-range-test-redirects; rm -rf $S/ld2903 $d; mkdir -p $d
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29603 --redirects 3 --log_dir $S/ld2903 \
    $J/j2903_lr_finder_spin.py > $d/console.log 2>&1
  for r in 0 1 2 3; do for s in stdout stderr; do
    cp $S/ld2903/*/attempt_0/$r/$s.log $d/rank$r.$s.log; done; done
}
c2904() {  # legacy python -m torch.distributed.launch --use_env
  timeout 150 nice -n 15 $PY $LAUNCH --nproc_per_node=4 --master_port=29604 --use_env \
    $J/j2904_cpu_quota_sigxcpu.py > $OUTD/2904-hashing-regressor-launch.log 2>&1
}
c2905() {  # two torchrun agents ("nodes") on one machine, c10d rendezvous
  local d=$OUTD/2905-two-node-labels; rm -rf $d; mkdir -p $d
  ( timeout 150 nice -n 15 $PY $TRUN --nnodes=2 --node_rank=0 --nproc_per_node=2 --rdzv_backend=c10d \
      --rdzv_endpoint=localhost:29605 --rdzv_id=job2905 $J/j2905_two_node_label_dtype.py > $d/node0.log 2>&1 ) &
  sleep 3
  ( timeout 150 nice -n 15 $PY $TRUN --nnodes=2 --node_rank=1 --nproc_per_node=2 --rdzv_backend=c10d \
      --rdzv_endpoint=localhost:29605 --rdzv_id=job2905 $J/j2905_two_node_label_dtype.py > $d/node1.log 2>&1 ) &
  wait
}
c2906() {  # torch.multiprocessing.spawn
  timeout 150 nice -n 15 $PY $J/j2906_tabular_spawn_width.py > $OUTD/2906-tabular-spawn.log 2>&1
}
c2907() {  # torchrun --max_restarts=1
  mkdir -p $S/tracker
  printf '{"run_id": "a81f", "history": [{"step": 0, "loss": 0.69}' > $S/tracker/run_state.json
  timeout 200 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29607 --max_restarts=1 \
    $J/j2907_tracker_restarts.py > $OUTD/2907-tracker-push-restarts.log 2>&1
}
c2908() {  # torchrun, Python logging timestamps
  rm -rf $S/ckpt2908
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29608 \
    $J/j2908_ckpt_pickle_lambda.py > $OUTD/2908-full-model-save.log 2>&1
}
c2909() {  # torchrun, combined stream piped through an awk timestamper (like moreutils ts)
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29609 \
    $J/j2909_freeze_schedule_ddp.py 2>&1 | awk '{ print strftime("%b %d %H:%M:%S"), $0; fflush() }' \
    > $OUTD/2909-freeze-schedule-ts.log
}
c2910() {  # torchrun, Python logging with rank prefix
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29610 \
    $J/j2910_seq_mask_alloc.py > $OUTD/2910-attention-bias-alloc.log 2>&1
}
c2911() {  # control: SIGHUP sent to the torchrun agent after ~15 s
  timeout 150 nice -n 15 $PY $TRUN --nproc_per_node=4 --master_port=29611 \
    $J/j2911_hangup_healthy.py > $OUTD/2911-agent-hangup.log 2>&1 &
  local tp=$!; sleep 15
  local agent=$(pgrep -P $tp -f trun.py | head -1)
  [ -z "$agent" ] && agent=$(pgrep -P $(pgrep -P $tp | head -1) -f trun.py | head -1)
  echo "sending SIGHUP to agent pid $agent" >&2
  kill -HUP $agent
  wait $tp
}
c2912() {  # control: healthy spawn run with noisy logging
  timeout 150 nice -n 15 $PY $J/j2912_healthy_spawn_noisy.py > $OUTD/2912-healthy-spawn-noisy.log 2>&1
}

cases=${*:-2901 2902 2903 2904 2905 2906 2907 2908 2909 2910 2911 2912}
for c in $cases; do echo "== $c $(date -u +%T)"; c$c; echo "rc=$?"; done
