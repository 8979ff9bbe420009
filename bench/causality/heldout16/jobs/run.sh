#!/bin/bash
# Re-runs the held-out set 16 cases (1601-1612) and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for directory cases), unless OUT is set.
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1603 1607    # selected cases
#
# Needs: Debian python3-torch (1.13, CPU, gloo), python3-numpy, GNU parallel, util-linux
# script, coreutils timeout, findutils xargs.  Each case runs in its own scratch dir
# $RUN/NNNN (default /tmp/hx16/NNNN), where the job is copied as train.py next to
# heldout10's trainlib.py.  torchrun runs through heldout13's trun.py (fixes torch 1.13's
# Std.from_str on Python 3.11; otherwise plain torch.distributed.run).  minilaunch is
# heldout10's launch.py, unchanged.  Every job runs under `nice -n 10`.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx16}
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

watchdog() {  # watchdog SECONDS PGID: SIGKILL the process group if it is still there
    ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep $1 & s=$!; wait $s; kill -KILL -- -$2 2>/dev/null ) &
}

# ---------------------------------------------------------------- cases
case_1601() {
    setup 1601 j1601_intent_xargs.py
    $PY $HERE/prep.py 1601
    # xargs -P: one process per rank, RANK from the argument, output straight to one console
    export MASTER_ADDR=127.0.0.1 MASTER_PORT=30101 WORLD_SIZE=3
    seq 0 2 | $NICE timeout 120 xargs -P 3 -I{} env RANK={} LOCAL_RANK={} $PY -u train.py \
        > $OUT/1601-xargs-intent-classifier.log 2>&1
    echo "xargs exit status $?"
}

case_1602() {
    setup 1602 j1602_cuda_override.py
    $PY $HERE/prep.py 1602
    # torchrun --tee 2: only the workers' stderr is copied to the console ([defaultN]:);
    # their stdout goes only to torchrun's temporary log dir
    $NICE timeout 120 $TORCHRUN --nproc_per_node 3 --master_port 30102 --tee 2 train.py \
        > $OUT/1602-torchrun-tee-stderr-tabular.log 2>&1
}

case_1603() {
    setup 1603 j1603_asr_frames.py j1603_start.sh
    $PY $HERE/prep.py 1603
    local D=$OUT/1603-asr-frames-shell
    rm -rf $D; mkdir -p $D
    MASTER_PORT=30103 $NICE timeout 150 bash j1603_start.sh > $D/start.out 2>&1
    cp logs/asr-*.out $D/
}

case_1604() {
    setup 1604 j1604_session_recsys_spawn.py
    $PY $HERE/prep.py 1604
    # an earlyoom-style guard SIGKILLs any process of the job over 900 MiB RSS; it logs only
    # to its own file (memguard.log in the scratch dir), not to the job's console
    $NICE timeout 120 $PY train.py --world 3 --port 30104 > $OUT/1604-spawn-session-recsys.log 2>&1 &
    local job=$!
    $PY $HERE/j1604_memguard.py $job 900 memguard.log &
    local mg=$!
    wait $job
    echo "spawn exit status $?"
    kill $mg
    cat memguard.log
}

case_1605() {
    setup 1605 j1605_charlm_tbptt.py
    $PY $HERE/prep.py 1605
    # GNU parallel, one job per rank, output tagged and line-buffered; --halt now,fail=1 kills
    # the other jobs as soon as one fails
    export MASTER_ADDR=127.0.0.1 MASTER_PORT=30105 WORLD_SIZE=3
    $NICE timeout 120 parallel --line-buffer --tagstring 'charlm.{}' --halt now,fail=1 -j 3 \
        'RANK={} LOCAL_RANK={} /usr/bin/python3 -u train.py' ::: 0 1 2 > $OUT/1605-gnu-parallel-charlm.log 2>&1
    echo "parallel exit status $?"
}

case_1606() {
    setup 1606 j1606_trainer_callbacks.py
    local D=$OUT/1606-trainer-callbacks-two-hosts
    rm -rf $D; mkdir -p $D
    # minilaunch with two fake hosts (2 ranks each), per-rank files only (--log-dir, no console);
    # launcher.out holds minilaunch's own lines
    $NICE timeout 120 $LAUNCH --nproc 4 --port 30106 --hosts trn-a:2,trn-b:2 --log-dir $D --no-console \
        --unbuffered --grace 5 -- $PY train.py > $D/launcher.out 2>&1
}

case_1607() {
    setup 1607 j1607_churn_sampler.py
    $PY $HERE/prep.py 1607
    # plain torchrun (4 workers), JSON-lines logging on stdout, tracebacks unprefixed
    $NICE timeout 120 $TORCHRUN --nproc_per_node 4 --master_port 30107 train.py > $OUT/1607-torchrun-jsonl-churn.log 2>&1
}

case_1608() {
    setup 1608 j1608_linear_probe_ckpt.py
    $PY $HERE/prep.py 1608
    # minilaunch, no prefixes, with its table summary; hydra-style logging
    $NICE timeout 120 $LAUNCH --nproc 3 --port 30108 --unbuffered --summary table --grace 4 -- $PY train.py \
        > $OUT/1608-minilaunch-linear-probe.log 2>&1
}

case_1609() {
    setup 1609 j1609_token_tagger.py
    $PY $HERE/prep.py 1609
    local D=$OUT/1609-token-tagger-torchrun-redirects
    rm -rf $D; mkdir -p $D
    # torchrun --redirects 1: the workers' stdout goes only to torchrun_logs/.../N/stdout.log;
    # their stderr (logging, tracebacks) stays on the console, unprefixed
    $NICE timeout 120 $TORCHRUN --nproc_per_node 4 --master_port 30109 --rdzv_id tagger --redirects 1 \
        --log_dir $D/torchrun_logs train.py > $D/console.log 2>&1
}

case_1610() {
    setup 1610 j1610_demand_forecast.py
    local D=$OUT/1610-gnu-parallel-results-forecast
    rm -rf $D; mkdir -p $D
    # GNU parallel --results: one directory per job with its stdout/stderr, plus a job log
    export MASTER_ADDR=127.0.0.1 MASTER_PORT=30110 WORLD_SIZE=3
    $NICE timeout 120 parallel --results $D/results --joblog $D/joblog.tsv -j 3 \
        'RANK={} LOCAL_RANK={} /usr/bin/python3 -u train.py' ::: 0 1 2 > $D/console.log 2>&1
    echo "parallel exit status $?"
}

case_1611() {
    setup 1611 j1611_ner_spawn.py
    # an interactive run under script(1) (a pty); after 16 s the user presses Ctrl-C, i.e. the
    # terminal sends SIGINT to its foreground process group (the spawn parent and its children).
    # A background job of a non-interactive bash (and anything run.sh itself was started from
    # in the background) has SIGINT ignored, and Python then installs no KeyboardInterrupt
    # handler; so SIGINT is reset to its default before script(1) is exec'd, as in a terminal.
    $PY -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
        script -q -e -c "$NICE $PY train.py --nprocs 3 --port 30111" $OUT/1611-script-spawn-ner.log > /dev/null 2>&1 &
    local spid=$!
    sleep 16
    local fg=$(pgrep -P $spid)
    watchdog 120 $fg
    local wd=$!
    kill -INT -- -$fg
    wait $spid
    echo "script exit status $?"
    kill $wd 2>/dev/null
}

case_1612() {
    setup 1612 j1612_speech_enhancer.py
    # plain torchrun; after 15 s every worker gets SIGUSR1 (the cluster's preemption notice);
    # no coreutils timeout in front of torchrun, a background watchdog instead
    setsid $NICE $TORCHRUN --nproc_per_node 3 --master_port 30112 train.py > $OUT/1612-torchrun-speech-enhancer.log 2>&1 &
    local tr=$!
    watchdog 120 $tr
    local wd=$!
    sleep 15
    kill -USR1 $(pgrep -P $tr)
    wait $tr
    echo "torchrun exit status $?"
    kill $wd 2>/dev/null
}

#CASES_END

# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1601 1612))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
