#!/bin/bash
# Regenerates the heldout9 logs by running the real jobs in jobs/ on CPU (gloo, loopback only).
# Needs Debian's python3-torch 1.13.1 and python3-tqdm at /usr/bin/python3. One job at a time.
# Usage: bash run.sh            # all cases
#        bash run.sh 803 812    # only these cases
# A case's .log is what the user would capture (`... > train.log 2>&1`) except where noted in
# the case function (per-rank files and their concatenation).
set -u
H=$(cd "$(dirname "$0")" && pwd)
J=$H/jobs
PY=/usr/bin/python3
L="$PY $J/launch_ranks.py"
TMPD=${H9_TMP:-/tmp/denpex-heldout9}
mkdir -p "$TMPD"
free_port() { $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

declare -A NAME=(
  [801]=loss-batch-size-mismatch-srun-prefix
  [802]=truncated-shard-meta-json-per-rank-files
  [803]=oom-killer-sigkill-bash-notice
  [804]=perplexity-overflow-glog
  [805]=typo-attribute-rank0-save-tqdm
  [806]=pipeline-microbatch-count-recv-timeout
  [807]=broadcast-src-from-local-rank
  [808]=checkpoint-recompute-forward-hook-prefixed
  [809]=nan-guard-rank-in-logger-name
  [810]=native-abort-faulthandler-watch
  [811]=preemption-os-exit-3-watch
  [812]=dataloader-worker-unicode-tqdm-all-ranks
  [813]=expert-ckpt-parent-dir-tail-n
  [814]=iterator-exhausted-stopiteration
  [815]=corrupt-length-memoryerror-jsonl
  [816]=seq-len-assert-process-index
  [817]=cuda-sync-cpu-build-cat-files
  [818]=debug-detail-collective-mismatch
  [819]=eval-rank-unboundlocal-prefixed
  [820]=resume-state-dict-size-mismatch
  [821]=stale-lock-hang-kill-rest
  [822]=healthy-ddp-debug-info-unused-warning
  [823]=walltime-timeout-sigterm-all
  [824]=healthy-skip-nonfinite-warning
)

c801() { $L -n 4 --tag '{r}: ' "$J/loss_shape_mismatch.py"; }
c802() {
  local d=$H/802-${NAME[802]}; rm -rf "$d" "$TMPD/shards"
  $PY "$J/make_shard_meta.py" "$TMPD/shards" 4
  SHARD_ROOT=$TMPD/shards $L -n 4 --logdir "$d" --logname 'rank{r}.log' "$J/shard_meta_json.py"
  ( cd "$d" && tail -n +1 rank*.log )
}
c803() {
  # ranks started from bash with & and wait (bash prints its job notice for the SIGKILLed one)
  local port r; port=$(free_port)
  for r in 0 1 2; do
    MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=3 RANK=$r LOCAL_RANK=$r $PY -u "$J/oom_killer_sigkill.py" &
  done
  wait
}
c804() { $L -n 4 "$J/perplexity_overflow.py"; }
c805() { OUT_DIR=$TMPD $L -n 3 "$J/ddp_typo_rank0_save.py"; }
c806() { $L -n 3 "$J/pipeline_recv_timeout.py"; }
c807() { $L -n 4 --nproc-per-node 2 --tag '[rank{r}]: ' "$J/broadcast_local_rank_src.py"; }
c808() { $L -n 4 --tag '[rank{r}]: ' "$J/checkpoint_forward_hook.py"; }
c809() { $L -n 3 "$J/nan_guard.py"; }
c810() { $L -n 3 --watch "$J/native_abort.py"; }
c811() {
  rm -rf "$TMPD/maint"; mkdir -p "$TMPD/maint"; touch "$TMPD/maint/node1.maintenance"
  MAINT_MARKER_DIR=$TMPD/maint $L -n 4 --watch "$J/preempt_os_exit.py"
}
c812() {
  rm -rf "$TMPD/text"; $PY "$J/make_text_shards.py" "$TMPD/text" 3
  TEXT_ROOT=$TMPD/text $L -n 3 "$J/dataloader_unicode.py"
}
c813() {
  # per-rank files; the case is what `tail -n 15 logs/train_rank*.txt` shows
  local d=$H/813-${NAME[813]}; rm -rf "$d" "$TMPD/ckpt"
  CKPT_ROOT=$TMPD/ckpt $L -n 4 --logdir "$d" --logname 'train_rank{r}.txt' "$J/expert_ckpt_parent_missing.py"
  ( cd "$d" && tail -n 15 train_rank*.txt )
}
c814() { $L -n 3 "$J/next_iter_stopiteration.py"; }
c815() { $L -n 3 "$J/corrupt_record_memoryerror.py"; }
c816() { $L -n 4 "$J/seq_len_assert.py"; }
c817() {
  # per-rank files; the case is `cat log_rank*.txt` (no file headers)
  local d=$H/817-${NAME[817]}; rm -rf "$d"
  $L -n 2 --logdir "$d" --logname 'log_rank{r}.txt' "$J/cuda_sync_profiler.py"
  ( cd "$d" && cat log_rank*.txt )
}
c818() { TORCH_DISTRIBUTED_DEBUG=DETAIL $L -n 3 "$J/detail_step_counter_mismatch.py"; }
c819() { $L -n 3 --tag '[rank{r}]: ' "$J/eval_unboundlocal.py"; }
c820() {
  rm -rf "$TMPD/ckcache"; $PY "$J/make_resume_ckpts.py" "$TMPD/ckcache" 4
  CKPT_CACHE=$TMPD/ckcache $L -n 4 "$J/resume_state_dict_mismatch.py"
}
c821() {
  rm -rf "$TMPD/cache"; mkdir -p "$TMPD/cache/node2"; echo 31337 > "$TMPD/cache/node2/tokenized_train.arrow.lock"
  CACHE_ROOT=$TMPD/cache $L -n 3 --watch --kill-rest 3 "$J/stale_filelock_hang.py"
}
c822() { TORCH_DISTRIBUTED_DEBUG=INFO $L -n 3 --tag '[rank{r}]: ' "$J/healthy_ddp_debug_info.py"; }
c823() { timeout 14 $L -n 4 --forward --watch "$J/walltime_timeout.py"; echo "exit status $?"; }
c824() { $L -n 3 "$J/healthy_skip_nonfinite.py"; }

cases=("$@"); [ ${#cases[@]} -eq 0 ] && cases=($(printf '%s\n' "${!NAME[@]}" | sort))
for c in "${cases[@]}"; do
  out=$H/$c-${NAME[$c]}.log
  echo "== $c ${NAME[$c]}" >&2
  t0=$(date +%s)
  if [[ $c == 802 || $c == 813 || $c == 817 ]]; then
    c$c > "$out.tmp" 2>/dev/null; mv "$out.tmp" "$out"
  else
    ( cd "$TMPD" && c$c ) > "$out" 2>&1
  fi
  echo "   $(( $(date +%s) - t0 )) s, $(wc -c < "$out") bytes" >&2
done
