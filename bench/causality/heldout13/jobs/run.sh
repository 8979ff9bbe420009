#!/bin/bash
# Re-runs the held-out set 13 cases (1201-1212) and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for per-rank-directory cases).
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1203 1207    # selected cases
#
# Needs: Debian python3-torch (1.13, CPU, gloo), python3-tqdm, util-linux `script`,
# coreutils stdbuf/timeout.  Each case runs in its own scratch dir /tmp/hx13/NNNN/,
# where the job is copied as train.py.
# torchrun is run through trun.py (fixes torch 1.13's Std.from_str on Python 3.11;
# otherwise it is plain torch.distributed.run).  minilaunch is heldout10's launch.py, unchanged.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx13}
SHARED="$HERE/../../heldout10/jobs"
LAUNCH="$PY $SHARED/launch.py"
TORCHRUN="$PY $HERE/trun.py"
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
case_1201() {
    setup 1201 j1201_rank_config.py
    $PY $HERE/prep_1201.py
    $TORCHRUN --nproc_per_node 3 --master_port 29801 train.py > $OUT/1201-torchrun-tabular-config.log 2>&1
}

case_1202() {
    setup 1202 j1202_multilabel_loss.py
    $PY $HERE/prep_1202.py
    local D=$OUT/1202-tagger-tee-logdir
    rm -rf $D; mkdir -p $D
    # --tee 3 copies every worker's stdout+stderr to the console (console.log) and
    # --log_dir makes torchrun write per-rank stdout.log/stderr.log under $D/torchrun_logs
    $TORCHRUN --nproc_per_node 3 --master_port 29802 --rdzv_id tagger --tee 3 --log_dir $D/torchrun_logs \
        train.py > $D/console.log 2>&1
}

case_1203() {
    setup 1203 j1203_val_metric.py
    $PY $HERE/prep_1203.py
    $LAUNCH --nproc 4 --port 29803 --grace 3 -- $PY train.py > $OUT/1203-logging-sentiment-val.log 2>&1
}

case_1204() {
    setup 1204 j1204_spawn_adapter.py
    # sensor group 1 was re-exported with 24 features, but its adapter width in the
    # launch command still says 32
    $PY train.py --world 3 --port 29804 --sensor-dims 24,32,16 --feature-counts 24,24,16 \
        > $OUT/1204-spawn-sensor-adapter.log 2>&1
}

case_1205() {
    setup 1205 j1205_rotating_shards.py j1205_start_ranks.sh
    $PY $HERE/prep_1205.py
    MASTER_PORT=29805 bash j1205_start_ranks.sh 2>&1 | tee $OUT/1205-shell-tee-audio-shards.log
}

case_1206() {
    setup 1206 j1206_tqdm_ddp.py j1206_kill_rank.sh
    bash j1206_kill_rank.sh 3 4 &
    $TORCHRUN --nproc_per_node 4 --master_port 29806 train.py > $OUT/1206-torchrun-tqdm-cnn.log 2>&1
    wait
}

case_1207() {
    setup 1207 j1207_ckpt_sync.py
    source $HERE/prep_1207.sh
    # run under script(1) (pty capture, CRLF line ends) with line-buffered workers
    CKPT_REMOTE=$PWD/remote script -q -e -c "stdbuf -oL -eL $LAUNCH --nproc 3 --port 29807 --prefix mpi --jobid 4107 --grace 3 --term-timeout 5 -- stdbuf -oL $PY train.py" \
        $OUT/1207-script-mpi-style-forecaster.log > /dev/null
    wait
}

case_1208() {
    setup 1208 j1208_dedup_guard.py
    mkdir -p events && : > events/part2.replayed     # partition 2 was replayed by the upstream job
    # plain `python` (no -u): worker stdout is block-buffered into the log file
    $TORCHRUN --nproc_per_node 4 --master_port 29808 --monitor_interval 1 train.py > $OUT/1208-torchrun-buffered-ctr.log 2>&1
}

case_1209() {
    setup 1209 j1209_nan_guard.py
    $PY $HERE/prep_1209.py
    $LAUNCH --nproc 4 --port 29809 --quiet --summary table --grace 4 -- $PY train.py 2>&1 | tee $OUT/1209-logging-housing-two-faults.log
}

case_1210() {
    setup 1210 j1210_healthy_warnings.py
    $LAUNCH --nproc 3 --port 29810 --prefix rank --unbuffered -- $PY train.py > $OUT/1210-minilaunch-attnpool.log 2>&1
}

case_1211() {
    setup 1211 j1211_long_lm.py
    # the user hits Ctrl-C after a while: SIGINT to the whole foreground process group
    setsid $TORCHRUN --nproc_per_node 3 --master_port 29811 train.py > $OUT/1211-torchrun-transformer-lm.log 2>&1 &
    local pid=$!
    sleep 14
    kill -INT -- -$pid
    wait $pid
}

case_1212() {
    setup 1212 j1212_contrastive.py
    # the job's wall-clock budget: coreutils timeout sends SIGTERM after 20 s
    timeout 20 $LAUNCH --nproc 4 --port 29812 --prefix k8s --jobid simclr-pre --grace 3 -- $PY train.py \
        > $OUT/1212-k8s-style-simclr.log 2>&1
    echo "timeout exit status $?"
}

# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1201 1212))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
