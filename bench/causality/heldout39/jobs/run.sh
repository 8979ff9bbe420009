#!/usr/bin/env bash
# Re-run the heldout39 jobs: bash jobs/run.sh [3901 ...]   (writes ./39MM-*.log in the current dir)
# Torch 1.13 CPU (Debian python3-torch), gloo on 127.0.0.1, 4 ranks, OMP_NUM_THREADS=1.
set -u
J=$(cd "$(dirname "$0")" && pwd)
TRUN="/usr/bin/python3 /work/main/bench/causality/heldout13/jobs/trun.py"   # torchrun shim, unchanged
export OMP_NUM_THREADS=1
ALL="$*"
run_case() { [ -z "$ALL" ] || [[ " $ALL " == *" $1 "* ]]; }
if run_case 3901; then
  TORCH_DISTRIBUTED_DEBUG=DETAIL nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29611 \
    "$J/j3901_uneven_tail_sync.py" > 3901-tabular-tail-batch-detail.log 2>&1
fi
if run_case 3902; then
  TORCH_CPP_LOG_LEVEL=INFO nice -n 15 timeout 120 /usr/bin/python3 "$J/j3902_key_queue_sync.py" 29625 \
    > 3902-contrastive-key-queue-spawn.log 2>&1
fi
if run_case 3903; then
  nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29632 \
    "$J/j3903_cold_tier_shards.py" > 3903-feature-shards-object-store.log 2>&1
fi
if run_case 3904; then
  nice -n 15 timeout 120 $TRUN --nproc_per_node=4 --master_port=29641 --tee 3 \
    "$J/j3904_prefetch_thread.py" > 3904-textbag-prefetch-watchdog-tee.log 2>&1
fi
if run_case 3905; then
  TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO nice -n 15 timeout 120 $TRUN --nproc_per_node=4 \
    --master_port=29651 "$J/j3905_aux_head_ddp.py" 2>&1 | ts '%Y-%m-%d %H:%M:%S' > 3905-multitask-sensors-ddp-ts.log
fi
if run_case 3906; then
  TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO nice -n 15 timeout 120 /usr/bin/python3 \
    "$J/j3906_debug_flags_spawn.py" 29661 > 3906-gru-spawn-debug-flags.log 2>&1
fi
