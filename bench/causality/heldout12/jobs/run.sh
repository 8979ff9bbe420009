#!/bin/bash
# Re-runs the held-out set 12 cases and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for per-rank-directory cases).
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1103 1115    # selected cases
#
# Needs: Debian python3-torch (1.13.1, CPU, gloo), tmux, util-linux `script`, and for
# the Slurm cases (1101 1103 1104 1111 1113) slurm-wlm + munge (started by
# slurm_up.sh if no controller answers).  Each case runs in its own scratch dir
# under $RUN so tracebacks show /tmp/hx12/NNNN/train.py.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(dirname "$HERE")
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx12}
# minilaunch and trainlib are heldout10's, unchanged.
SHARED="$HERE/../../heldout10/jobs"
LAUNCH="$PY $SHARED/launch.py"
source "$HERE/slurm_up.sh"
unset RANK WORLD_SIZE LOCAL_RANK MASTER_ADDR MASTER_PORT

setup() {  # setup NNNN job.py [extra files...]
    local n=$1 job=$2; shift 2
    rm -rf "$RUN/$n"; mkdir -p "$RUN/$n"
    cp "$HERE/$job" "$RUN/$n/train.py"
    cp "$SHARED/trainlib.py" "$RUN/$n/"
    for f in "$@"; do cp "$HERE/$f" "$RUN/$n/"; done
    cd "$RUN/$n" || exit 1
}

# ---------------------------------------------------------------- cases
case_1101() {
    slurm_up || return 1
    setup 1101 j1101_label_check.py
    $PY $HERE/prep_1101.py
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29701 srun --label -n 4 --overcommit -J labelcheck $PY train.py \
        > $OUT/1101-srun-label-check.log 2>&1
}

case_1102() {
    setup 1102 j1102_pad_collate.py
    $PY $HERE/prep_1102.py
    $LAUNCH --nproc 3 --port 29702 --grace 3 -- $PY train.py > $OUT/1102-logfmt-tagger-collate.log 2>&1
}

case_1103() {
    slurm_up || return 1
    setup 1103 j1103_text_shards.py
    $PY $HERE/prep_1103.py
    local D=$OUT/1103-charlm-srun-per-task
    rm -rf $D; mkdir -p $D
    # srun writes each task's stdout+stderr to rank<taskid>.log; srun's own messages go to launcher.log
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29703 srun -n 3 --overcommit -J charlm -o "$D/rank%t.log" $PY train.py \
        > $D/launcher.log 2>&1
}

case_1104() {
    slurm_up || return 1
    setup 1104 j1104_shard_ckpt.py j1104.sbatch
    # a stale shard directory for rank 3 left behind by an earlier run as root
    mkdir -p ckpt/shards/rank3 && chmod 755 ckpt/shards/rank3
    chmod 777 . ckpt ckpt/shards
    local jid; jid=$(sbatch --parsable --uid=nobody --gid=nogroup --wait j1104.sbatch)
    cp shardckpt-$jid.out $OUT/1104-sbatch-shard-ckpt.log
}

case_1105() {
    setup 1105 j1105_feature_cache.py
    bash $HERE/prep_1105.sh
    $LAUNCH --nproc 3 --port 29705 --quiet --summary none --grace 3 -- $PY train.py 2>&1 \
        > $OUT/1105-jsonl-feature-cache.log 2>&1
}

case_1106() {
    setup 1106 j1106_uneven_shards.py
    $PY $HERE/prep_1106.py
    $LAUNCH --nproc 4 --port 29706 --quiet --summary none --on-failure wait -- $PY train.py \
        > $OUT/1106-uneven-shards-timestamps.log 2>&1
}

case_1107() {
    setup 1107 j1107_retrieval_eval.py
    $PY $HERE/prep_1107.py
    $LAUNCH --nproc 4 --port 29707 --prefix host --hosts sm-node07:2,sm-node12:2 --quiet --summary none \
        --grace 3 -- $PY train.py > $OUT/1107-two-host-retrieval-eval.log 2>&1
}

case_1108() {
    setup 1108 j1108_index_reader.py
    $PY $HERE/prep_1108.py
    $LAUNCH --nproc 3 --port 29708 --grace 3 -- $PY train.py > $OUT/1108-pid-logging-recsys.log 2>&1
}

case_1109() {
    setup 1109 j1109_native_check.py
    $PY $HERE/prep_1109.py
    $LAUNCH --nproc 3 --port 29709 --log-dir out --no-console --quiet --summary none --grace 3 -- $PY train.py >/dev/null 2>&1
    for i in 0 1 2; do mv out/rank$i.log out/worker-$i.txt; done
    for f in out/worker-*.txt; do printf '\n#### %s ####\n' "$f"; cat "$f"; done > $OUT/1109-concat-worker-files.log 2>&1
}

case_1110() {
    setup 1110 j1110_replay_buffer.py
    $PY $HERE/prep_1110.py
    $LAUNCH --nproc 3 --port 29710 --prefix compose --quiet --summary none --grace 3 -- $PY train.py 2>&1 \
        | sed -u 's/^trainer-\([0-9]\)  | /offline-rl_actor_\1  | /' > $OUT/1110-compose-replay-buffer.log 2>&1
}

case_1111() {
    slurm_up || return 1
    setup 1111 j1111_step_watchdog.py j1111.sbatch
    local jid; jid=$(sbatch --parsable --wait j1111.sbatch)
    cp wdog_$jid.log $OUT/1111-sbatch-step-watchdog.log
}

case_1112() {
    setup 1112 j1112_feature_store.py
    echo "us-1 us-1 eu-2 us-1" > regions.txt
    $LAUNCH --nproc 4 --port 29712 --grace 4 --term-timeout 4 -- $PY train.py > $OUT/1112-ctr-feature-store-hang.log 2>&1
}

case_1113() {
    slurm_up || return 1
    setup 1113 j1113_config_bcast.py j1113.sbatch
    local jid; jid=$(sbatch --parsable --wait j1113.sbatch)
    cp sweep-cos.$jid.out $OUT/1113-sbatch-config-broadcast.log
}

case_1114() {
    setup 1114 j1114_long_lm.py
    $PY $HERE/prep_1114.py
    $LAUNCH --nproc 4 --port 29714 --quiet --summary simple --grace 3 -- $PY train.py > $OUT/1114-late-overflow-iso-ts.log 2>&1
}

# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1101 1114))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
