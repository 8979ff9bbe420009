#!/bin/bash
# Regenerates every heldout8 log by running the real jobs in jobs/ on CPU (gloo, loopback only).
# Needs Debian's python3-torch 1.13.1 at /usr/bin/python3. One job at a time (~6 min in all).
# Usage: bash run.sh            # all cases
#        bash run.sh 703 716    # only these cases
# A case's .log is the combined stream a user would capture (`... > train.log 2>&1`), except
# 703 and 715, where each rank wrote its own file (kept in the case's directory) and the .log is
# their concatenation (703: `tail -n +1 rank_*.log`) or their merge by timestamp (715).
set -u
H=$(cd "$(dirname "$0")" && pwd)
J=$H/jobs
PY=/usr/bin/python3
L="$PY $J/launch.py"
TMPD=${H8_TMP:-/tmp/denpex-heldout8}
mkdir -p "$TMPD"

free_port() { $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# bash_ranks N SCRIPT: start the ranks from bash with `&` (stdout+stderr into the case log)
bash_ranks() {
  local n=$1 script=$2 r; PORT=$(free_port); PIDS=()
  for ((r = 0; r < n; r++)); do
    MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT WORLD_SIZE=$n RANK=$r LOCAL_RANK=$r $PY ${PYFLAGS--u} "$J/$script" &
    PIDS+=($!)
  done
}
# wait_for PATTERN COUNT [FILE]: wait (at most 40 s) until FILE has COUNT lines matching PATTERN
wait_for() { local i; for ((i = 0; i < 200; i++)); do [ "$(grep -c -- "$1" "${3:-$LOG}")" -ge "$2" ] && return; sleep 0.2; done; }
pids_of() { local i; for ((i = 0; i < 50; i++)); do [ -s "$1" ] && break; sleep 0.1; done; cat "$1"; }

c701() { $L -n 4 "$J/custom_function_backward.py"; }
c702() { $L -n 4 "$J/uneven_last_batch.py"; }
c703() {
  local d=$H/703-${NAME[703]}; rm -rf "$d"
  $L -n 4 --files "$d" "$J/zero_div_metrics.py"
  ( cd "$d" && tail -n +1 rank_*.log )
}
c704() { $L -n 3 --prefix '[rank{r}]:' "$J/all_gather_object_unpicklable.py"; }
c705() { $PY -u "$J/recursion_error.py"; }
c706() { bash_ranks 3 destroy_early.py; wait; }
c707() { $L -n 3 --prefix '[default{r}]:' "$J/finally_raise.py"; }
c708() { $L -n 3 --prefix '[rank{r}]:' "$J/bad_collate.py"; }
c709() { bash_ranks 3 optimizer_half_state.py; wait; }
c710() {
  rm -rf "$TMPD/outputs"; mkdir -p "$TMPD/outputs"; echo "stale" > "$TMPD/outputs/exp-lr3e-4"
  OUT_ROOT=$TMPD/outputs PYFLAGS= bash_ranks 3 notadir_output.py; wait
}
c711() { bash_ranks 4 abort_json.py; wait; }
c712() { $L -n 3 --report "$J/raise_sigsegv.py"; }
c713() { bash_ranks 3 signal_alarm.py; wait; }
c714() { $L -n 3 --prefix '[rank{r}]:' "$J/lock_deadlock.py"; }
c715() {
  local d=$H/715-${NAME[715]}; rm -rf "$d"; mkdir -p "$d"
  LOG_DIR=$d $L -n 4 --files "$d" "$J/two_failures_jsonl_files.py"
  find "$d" -name 'rank_*.log' -empty -delete
  $PY "$J/merge_jsonl.py" "$d"/rank_*.jsonl
}
c716() {
  rm -f "$TMPD/716.pids"
  $L -n 4 --pidfile "$TMPD/716.pids" "$J/sigint_one.py" &
  local lp=$! p; p=($(pids_of "$TMPD/716.pids"))
  wait_for 'rank=1 .* it 60 ' 1; kill -INT "${p[1]}"; wait $lp
}
c717() { $L -n 2 --prefix '[default{r}]:' "$J/healthy_warnings.py"; }
c718() {
  $L -n 4 --forward --report --prefix '[rank{r}]:' "$J/plain_train.py" &
  local lp=$!; wait_for 'iter   50 ' 4; kill -TERM $lp; wait $lp
}
c719() { bash_ranks 3 broadcast_object_unpicklable.py; wait; }
c720() { $L -n 4 --prefix '[default{r}]:' "$J/embedding_index_error.py"; }
c721() { bash_ranks 3 pdb_breakpoint.py < /dev/null; wait; }
c722() { $L -n 4 "$J/monitored_barrier.py"; }
c723() {
  rm -f "$TMPD/723.pids"
  $L -n 3 --pidfile "$TMPD/723.pids" "$J/plain_train.py" &
  local lp=$! p; p=($(pids_of "$TMPD/723.pids"))
  wait_for 'iter   40 ' 3; kill -INT "${p[@]}"; wait $lp
}
c724() { rm -rf "$TMPD/metrics"; METRICS_DIR=$TMPD/metrics bash_ranks 3 atexit_sync.py; wait; }
c725() { bash_ranks 4 new_group_skipped.py; wait; }
c726() { $L -n 8 --prefix '[default{r}]:' "$J/moe_all_to_all.py"; }

declare -A NAME=(
  [701]=custom-autograd-backward-rank-logger [702]=uneven-last-batch-jsonl
  [703]=zero-division-metric-per-rank-files [704]=all-gather-object-lambda-prefixed
  [705]=recursion-error-mp-process [706]=early-stop-destroy-process-group
  [707]=finally-cleanup-raises-default-prefix [708]=bad-collate-none-image-progress
  [709]=optimizer-step-half-expert [710]=not-a-directory-buffered-stdout
  [711]=sigabrt-jsonl [712]=sigsegv-launcher-report [713]=data-watchdog-alarm
  [714]=lock-deadlock-faulthandler-dump [715]=two-failures-jsonl-merged
  [716]=sigint-one-worker [717]=healthy-warnings-default-prefix
  [718]=cancel-sigterm-forwarded-launcher [719]=broadcast-object-unpicklable-hf-logging
  [720]=embedding-index-out-of-range-progress [721]=leftover-breakpoint-bdbquit
  [722]=monitored-barrier-late-rank [723]=ctrl-c-all-workers
  [724]=atexit-handler-raises-exit-zero [725]=new-group-not-called-everywhere
  [726]=all-to-all-split-sizes-eight-ranks
)
cases=("$@"); [ ${#cases[@]} -eq 0 ] && cases=($(printf '%s\n' "${!NAME[@]}" | sort -n))
for c in "${cases[@]}"; do
  log=$H/$c-${NAME[$c]}.log; LOG=$log
  echo "== $c -> $(basename "$log")" >&2
  start=$(date +%s)
  ( cd "$TMPD" && c$c ) > "$log" 2>&1
  echo "   $(( $(date +%s) - start ))s, $(wc -l < "$log") lines" >&2
done
