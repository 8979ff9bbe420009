#!/bin/bash
# Re-runs the held-out set 17 cases (1701-1710) and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for directory cases), unless OUT is set.
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1703 1707    # selected cases
#
# Needs: Debian python3-torch (1.13, CPU, gloo), util-linux flock, coreutils timeout/nohup.
# Each case runs in its own scratch dir $RUN/NNNN (default /tmp/hx17/NNNN), where the job is
# copied as train.py next to heldout10's trainlib.py.  torchrun runs through heldout13's
# trun.py and torch.distributed.launch through jobs/tlaunch.py (both fix torch 1.13's
# Std.from_str on Python 3.11; otherwise stock).  Every job runs under `nice -n 15`.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx17}
SHARED="$HERE/../../heldout10/jobs"
NICE="nice -n 15"
TORCHRUN="$PY $HERE/../../heldout13/jobs/trun.py"
DLAUNCH="$PY $HERE/tlaunch.py"
unset RANK WORLD_SIZE LOCAL_RANK MASTER_ADDR MASTER_PORT

setup() {  # setup NNNN job.py [extra files...]
    local n=$1 job=$2; shift 2
    rm -rf "$RUN/$n"; mkdir -p "$RUN/$n"
    cp "$HERE/$job" "$RUN/$n/train.py"
    cp "$SHARED/trainlib.py" "$RUN/$n/"
    for f in "$@"; do cp "$HERE/$f" "$RUN/$n/"; done
    cd "$RUN/$n" || exit 1
}

watchdog() {  # watchdog SECONDS PGID: SIGKILL the process group if it is still there
    ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep $1 & s=$!; wait $s; kill -KILL -- -$2 2>/dev/null ) &
}

# ---------------------------------------------------------------- cases
case_1701() {
    setup 1701 j1701_lm_shard_cache.py
    mkdir -p cache
    # a tokenizer job from an earlier attempt is still running on the node and holds the
    # build lock of shard 00004 (read by rank 1 in epoch 1)
    flock cache/shard-00004.lock sleep 300 &
    local holder=$!
    $NICE timeout 150 $DLAUNCH --use_env --nproc_per_node 3 --master_port 30201 train.py \
        > $OUT/1701-launch-lstm-lm.log 2>&1
    echo "launch exit status $?"
    pkill -P $holder; kill $holder 2>/dev/null
}

case_1702() {
    setup 1702 j1702_conv_classifier.py j1702_start.sh
    cp -r "$HERE/profiles_1702" profiles
    local D=$OUT/1702-nohup-cnn-four-nodes
    rm -rf $D; mkdir -p $D
    # four background ranks under nohup, one train.N.out each; start.out has the start
    # script's own lines (pids, exit statuses)
    MASTER_PORT=30202 $NICE timeout 150 bash j1702_start.sh > $D/start.out 2>&1
    cp logs/train.*.out $D/
}

case_1703() {
    setup 1703 j1703_seq_ckpt_spawn.py
    # mp.spawn(join=False) with the job's own supervisor loop around context.join(timeout)
    $NICE timeout 120 $PY train.py --world 4 --port 30203 > $OUT/1703-spawn-supervisor-seqcls.log 2>&1
    echo "spawn exit status $?"
}

case_1704() {
    setup 1704 j1704_webds_audio.py
    $PY $HERE/prep.py 1704
    local D=$OUT/1704-plaunch-kws-rank-logs
    rm -rf $D; mkdir -p $D
    # plaunch (jobs/plaunch.py) prefixes each worker's lines; only rank 0 writes to the
    # console, the others write to logs/rankN.log
    $NICE timeout 120 $PY $HERE/plaunch.py --nproc 4 --port 30204 --job kws -- $PY train.py \
        > $D/console.log 2>&1
    echo "plaunch exit status $?"
    cp logs/rank*.log $D/
}

case_1705() {
    setup 1705 j1705_tabular_bn.py
    $PY $HERE/prep.py 1705
    local D=$OUT/1705-torchrun-tee-stdout-fraud-mlp
    rm -rf $D; mkdir -p $D
    # torchrun --tee 1 --log_dir: stdout is copied to the console with [defaultN]: prefixes,
    # stderr (tracebacks) goes only to torchrun_logs/.../N/stderr.log
    $NICE timeout 120 $TORCHRUN --nproc_per_node 3 --master_port 30205 --rdzv_id fraud --tee 1 \
        --log_dir $D/torchrun_logs train.py > $D/console.log 2>&1
    echo "torchrun exit status $?"
}

case_1706() {
    setup 1706 j1706_ranker_colour.py j1706_start.sh
    # three background ranks, each piped through `tee -a` into one shared train.log
    MASTER_PORT=30206 $NICE timeout 120 bash j1706_start.sh
    echo "start script exit status $?"
    cp train.log $OUT/1706-tee-shared-ranker-colour.log
}

case_1707() {
    setup 1707 j1707_sensor_clip.py
    $PY $HERE/prep.py 1707
    # plain torchrun (4 workers); logging with %(process)d only, no rank field
    $NICE timeout 120 $TORCHRUN --nproc_per_node 4 --master_port 30207 train.py \
        > $OUT/1707-torchrun-pid-logging-vibration.log 2>&1
    echo "torchrun exit status $?"
}

case_1708() {
    setup 1708 j1708_pose_fd_leak.py
    $PY $HERE/prep.py 1708
    # the cluster's default open-file limit for batch jobs
    ulimit -n 128
    $NICE timeout 120 $PY $HERE/plaunch.py --nproc 3 --port 30208 --job pose --prefix '{job}[{rank}/{world}] ' \
        -- $PY train.py > $OUT/1708-plaunch-pose-regressor.log 2>&1
    echo "plaunch exit status $?"
}

case_1709() {
    setup 1709 j1709_denoise_ae.py
    # the deprecated launcher (FutureWarning on start); a healthy run that ends normally
    $NICE timeout 120 $DLAUNCH --use_env --nproc_per_node 3 --master_port 30209 train.py \
        > $OUT/1709-launch-denoise-ae.log 2>&1
    echo "launch exit status $?"
}

case_1710() {
    setup 1710 j1710_gnn_absl.py
    # healthy torchrun job; after 18 s the user kills the launcher (`kill PID`: SIGTERM to
    # torchrun only, not to its workers).  No coreutils timeout in front (it would signal
    # torchrun a second time); a background watchdog instead.
    setsid $NICE $TORCHRUN --nproc_per_node 3 --master_port 30210 train.py > $OUT/1710-torchrun-absl-gcn.log 2>&1 &
    local tr=$!
    watchdog 120 $tr
    local wd=$!
    sleep 18
    kill -TERM $tr
    wait $tr
    echo "torchrun exit status $?"
    kill $wd 2>/dev/null
}

#CASES_END

# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1701 1710))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
