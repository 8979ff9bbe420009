#!/bin/bash
# Re-runs the held-out set 14 cases (1401-1412) and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for directory cases), unless OUT is set.
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1403 1407    # selected cases
#
# Needs: Debian python3-torch (1.13, CPU, gloo), python3-numpy, python3-tqdm, coreutils timeout.
# Each case runs in its own scratch dir $RUN/NNNN (default /tmp/hx14/NNNN), where the job is
# copied as train.py next to heldout10's trainlib.py.  torchrun runs through heldout13's trun.py
# (fixes torch 1.13's Std.from_str on Python 3.11; otherwise plain torch.distributed.run).
# minilaunch is heldout10's launch.py, unchanged.  Every job runs under `nice -n 10` and a
# `timeout 120` safety net.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx14}
SHARED="$HERE/../../heldout10/jobs"
NICE="nice -n 10"
LAUNCH="$PY $SHARED/launch.py"
TORCHRUN="$PY $HERE/../../heldout13/jobs/trun.py"
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
case_1401() {
    setup 1401 j1401_telemetry_ae.py
    $PY $HERE/prep_1401.py
    # torchrun with a named role and --tee 3: every worker line is copied to the console as [trainerN]:
    $NICE timeout 120 $TORCHRUN --nproc_per_node 3 --master_port 29941 --role trainer --tee 3 \
        train.py > $OUT/1401-torchrun-tee-telemetry-ae.log 2>&1
}

case_1402() {
    setup 1402 j1402_textcnn_spawn.py
    $PY $HERE/prep_1402.py
    $NICE timeout 120 $PY train.py --world 3 --port 29942 > $OUT/1402-spawn-tqdm-textcnn.log 2>&1
}

case_1403() {
    setup 1403 j1403_unet_resume.py j1403_start_ranks.sh
    $PY $HERE/prep_1403.py
    local D=$OUT/1403-unet-resume-shell
    rm -rf $D; mkdir -p $D
    # shell loop: background ranks, one log file per rank (logs/worker-N.log) plus the loop's own output
    MASTER_PORT=29943 $NICE timeout 120 bash j1403_start_ranks.sh > $D/start_ranks.out 2>&1
    cp logs/worker-*.log $D/
}

case_1404() {
    setup 1404 j1404_pointnet_native.py
    $PY $HERE/prep_1404.py
    # plain torchrun, default console (no prefixes), stdout and stderr into one file
    $NICE timeout 120 $TORCHRUN --nproc_per_node 3 --master_port 29944 train.py > $OUT/1404-torchrun-pointnet.log 2>&1
}

case_1405() {
    setup 1405 j1405_vae_skipstep.py
    $PY $HERE/prep_1405.py
    # minilaunch with host prefixes (two fake hosts, 2 ranks each); nothing in the log maps hosts to ranks
    $NICE timeout 120 $LAUNCH --nproc 4 --port 29945 --prefix host --hosts gpu-a07:2,gpu-a11:2 --unbuffered \
        --grace 5 -- $PY train.py > $OUT/1405-minilaunch-hosts-vae.log 2>&1
}

case_1406() {
    setup 1406 j1406_tree_rnn.py
    $PY $HERE/prep_1406.py
    local D=$OUT/1406-treernn-torchrun-logdir
    rm -rf $D; mkdir -p $D
    # --redirects 3: worker output goes only to torchrun's per-rank files under --log_dir;
    # the console (console.log) holds only the agent's own output
    $NICE timeout 120 $TORCHRUN --nproc_per_node 4 --master_port 29946 --rdzv_id treernn --redirects 3 \
        --log_dir $D/torchrun_logs train.py > $D/console.log 2>&1
}

case_1407() {
    setup 1407 j1407_multitask_det.py
    $PY $HERE/prep_1407.py
    # minilaunch, stderr merged into stdout, no prefixes, --quiet (no launcher chatter but the summary)
    $NICE timeout 120 $LAUNCH --nproc 4 --port 29947 --merge-stderr --quiet --grace 4 -- $PY train.py \
        > $OUT/1407-logging-multitask.log 2>&1
}

case_1408() {
    setup 1408 j1408_whiten_probe.py
    $PY $HERE/prep_1408.py
    local D=$OUT/1408-two-node-torchrun-probe
    rm -rf $D; mkdir -p $D
    # two torchrun agents on one machine standing in for two nodes (static rendezvous on
    # node 0's master port); each agent's console goes to its own file
    local common="--nnodes 2 --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 29948"
    $NICE timeout 120 $TORCHRUN $common --node_rank 0 train.py > $D/node0.log 2>&1 &
    local p0=$!
    sleep 1
    $NICE timeout 120 $TORCHRUN $common --node_rank 1 train.py > $D/node1.log 2>&1 &
    local p1=$!
    wait $p0 $p1
}

case_1409() {
    setup 1409 j1409_skipgram.py j1409_start_ranks.sh
    $PY $HERE/prep_1409.py
    # shell loop, background ranks, each piped through `sed` to tag its lines; no exit codes reported
    MASTER_PORT=29949 $NICE timeout 120 bash j1409_start_ranks.sh > $OUT/1409-shell-sed-skipgram.log 2>&1
}

case_1410() {
    setup 1410 j1410_coord_mlp_spawn.py
    $NICE timeout 120 $PY train.py --world 3 --port 29950 > $OUT/1410-spawn-logging-coord-mlp.log 2>&1
    echo "exit status $?"
}

case_1411() {
    setup 1411 j1411_vit_tiny.py
    # the user presses Ctrl-C in the terminal after a while: SIGINT to the whole foreground
    # process group (torchrun agent and its workers)
    # (no coreutils timeout in front of torchrun here: it would forward a second SIGINT;
    # a background watchdog kills the group after 120 s instead)
    setsid $NICE $TORCHRUN --nproc_per_node 3 --master_port 29951 --tee 3 train.py \
        > $OUT/1411-torchrun-tee-vit.log 2>&1 &
    local pid=$!
    ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 120 & s=$!; wait $s; kill -KILL -- -$pid 2>/dev/null ) &
    local wd=$!
    sleep 18
    kill -INT -- -$pid
    wait $pid
    echo "torchrun exit status $?"
    kill $wd 2>/dev/null
}

case_1412() {
    setup 1412 j1412_distill.py j1412_start_ranks.sh
    local D=$OUT/1412-distill-shell-logs
    rm -rf $D; mkdir -p $D
    # the job's wall-clock limit: after 20 s SIGTERM goes to every process of the job
    # (its own process group), the way Slurm signals a job step at its time limit
    MASTER_PORT=29952 setsid $NICE bash j1412_start_ranks.sh > $D/start_ranks.out 2>&1 &
    local pid=$!
    ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 120 & s=$!; wait $s; kill -KILL -- -$pid 2>/dev/null ) &
    local wd=$!
    sleep 20
    kill -TERM -- -$pid
    wait $pid
    kill $wd 2>/dev/null
    cp logs/distill.rank*.log $D/
}



# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1401 1412))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
