#!/bin/bash
# Regenerates every heldout7 log by running the real jobs in jobs/ on CPU (gloo, loopback only).
# Needs Debian's python3-torch 1.13.1 at /usr/bin/python3. Runs one job at a time (~8 min in all).
# Usage: bash run.sh            # all cases
#        bash run.sh 603 610    # only these cases
# Each case's log is everything the ranks (and this launcher's own job notices, as a user's
# `./launch.sh > train.log 2>&1` would catch them) wrote, appended to one file as it arrived.
set -u
H=$(cd "$(dirname "$0")" && pwd)
J=$H/jobs
PY=/usr/bin/python3
TMPD=${H7_TMP:-/tmp/denpex-heldout7}
mkdir -p "$TMPD"

free_port() { $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_ranks N SCRIPT [PREFIX]   PREFIX: sed prefix, '@' stands for the rank (e.g. '[rank@]: ')
# env: PYFLAGS (default -u), RUNAS (command prefix, e.g. setpriv ...). Sets PIDS.
start_ranks() {
  local n=$1 script=$2 pfx=${3:-} r p
  PORT=$(free_port); PIDS=()
  for ((r = 0; r < n; r++)); do
    if [ -z "$pfx" ]; then
      MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT WORLD_SIZE=$n RANK=$r LOCAL_RANK=$r ${RUNAS:-} $PY ${PYFLAGS--u} "$J/$script" &
    else
      p=${pfx//@/$r}
      { MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT WORLD_SIZE=$n RANK=$r LOCAL_RANK=$r ${RUNAS:-} $PY ${PYFLAGS--u} "$J/$script" 2>&1 | sed -u "s/^/$p/"; } &
    fi
    PIDS+=($!)
  done
}

# wait_for PATTERN COUNT: wait (at most 40 s) until this case's log has COUNT lines with PATTERN
wait_for() { local i; for ((i = 0; i < 200; i++)); do [ "$(grep -c -- "$1" "$LOG")" -ge "$2" ] && return; sleep 0.2; done; }

c601() { start_ranks 4 silent_exit.py; wait; }
c602() { start_ranks 3 os_exit.py; wait; }
c603() { start_ranks 4 segfault.py; wait; }
c604() { start_ranks 4 segfault.py '[rank@]: '; wait; }
c605() { start_ranks 3 dataloader_worker_raise.py '[rank@]:'; wait; }
c606() { start_ranks 4 assert_eval.py '[default@]:'; wait; }
c607() { start_ranks 3 collective_mismatch.py '[default@]:'; wait; }
c608() { start_ranks 3 size_mismatch.py '@: '; wait; }
c609() { start_ranks 4 stall_sleep.py; wait; }
c610() { start_ranks 3 sigterm_one.py; wait_for 'rank=2 step=12 ' 1; kill -TERM "${PIDS[2]}"; wait; }
c611() { start_ranks 4 host_oom.py '[rank@]: '; wait; }
c612() { $PY "$J/make_shards.py" "$TMPD/data" 4 3; DATA_DIR=$TMPD/data PYFLAGS= start_ranks 4 shard_missing.py; wait; }
c613() { MASTER_PORT=$(free_port) $PY -u "$J/spawn_keyerror.py"; }
c614() { CKPT=$TMPD/resume/last.pt MASTER_PORT=$(free_port) $PY -u "$J/spawn_corrupt_ckpt.py"; }
c615() {
  rm -rf "$TMPD/ckpt-ro"; mkdir -p "$TMPD/ckpt-ro"; chmod 755 "$TMPD/ckpt-ro"   # owned by root
  OUT_DIR=$TMPD/ckpt-ro RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups" start_ranks 2 readonly_ckpt.py; wait
}
c616() { start_ranks 4 cancel_sigterm.py; wait_for 'INFO: step 20 ' 4; kill -TERM "${PIDS[@]}"; wait; }
c617() { start_ranks 2 healthy_deprecations.py; wait; }
c618() { start_ranks 4 two_failures.py; wait; }
c619() { start_ranks 3 anomaly_nan.py '[rank@]:'; wait; }
c620() { start_ranks 4 ddp_unused_branch.py; wait; }
c621() { start_ranks 4 ddp_model_mismatch.py; wait; }
c622() { start_ranks 4 import_error_before_init.py '@: '; wait; }
c623() { start_ranks 3 dataloader_worker_killed.py; wait; }
c624() { start_ranks 3 skip_barrier.py; wait; }
c625() { PYFLAGS= start_ranks 3 healthy_caught_traceback.py; wait; }

declare -A NAME=(
  [601]=silent-sys-exit [602]=os-exit-pid-logging [603]=segfault-faulthandler-plain
  [604]=segfault-faulthandler-prefixed [605]=dataloader-worker-valueerror
  [606]=assert-eval-barrier-default-prefix [607]=allgather-vs-allreduce
  [608]=allreduce-size-mismatch-srun-prefix [609]=stall-sleep-gloo-timeout
  [610]=external-sigterm-one-worker [611]=host-oom-rlimit-progress
  [612]=missing-shard-buffered-stdout [613]=spawn-keyerror [614]=spawn-corrupt-checkpoint
  [615]=readonly-checkpoint-dir [616]=cancel-sigterm-all [617]=healthy-deprecation-warnings
  [618]=two-failures-timestamped [619]=anomaly-nan-backward [620]=ddp-unused-parameters
  [621]=ddp-model-mismatch [622]=import-error-before-init [623]=dataloader-worker-sigkill
  [624]=skip-barrier-timeout [625]=healthy-caught-traceback
)
cases=("$@"); [ ${#cases[@]} -eq 0 ] && cases=($(printf '%s\n' "${!NAME[@]}" | sort -n))
for c in "${cases[@]}"; do
  log=$H/$c-${NAME[$c]}.log; LOG=$log
  echo "== $c -> $(basename "$log")" >&2
  start=$(date +%s)
  ( cd "$TMPD" && c$c ) > "$log" 2>&1
  echo "   $(( $(date +%s) - start ))s, $(wc -l < "$log") lines" >&2
done
