#!/bin/bash
# Re-runs the held-out set 18 cases (1801-1812) and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for directory cases), unless OUT is set.
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1803 1807    # selected cases
#          OUT=/tmp/x RUN=/tmp/y bash run.sh
#
# Needs: Debian python3-torch (1.13, CPU, gloo), python3-numpy, coreutils timeout/tail,
# util-linux setsid, glibc (1806 relies on its tcache double-free check).  Each case runs in
# its own scratch dir $RUN/NNNN (default /tmp/hx18/NNNN), where the job is copied as
# train.py next to heldout10's trainlib.py, and jobs/prep.py NNNN writes its input files.
# torchrun runs through heldout13's trun.py (fixes torch 1.13's Std.from_str on Python
# 3.11; otherwise stock torch.distributed.run).  Every job runs under `nice -n 15`.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx18}
SHARED="$HERE/../../heldout10/jobs"
NICE="nice -n 15"
TORCHRUN="$PY $HERE/../../heldout13/jobs/trun.py"
unset RANK WORLD_SIZE LOCAL_RANK MASTER_ADDR MASTER_PORT NODE_NAME
mkdir -p "$OUT"

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
case_1801() {
    setup 1801 j1801_intent_preds_prompt.py
    # an earlier attempt crashed after only rank 2 had written its epoch-1 predictions
    mkdir -p preds
    echo '{"id": 0, "pred": 3}' > preds/part-00002.jsonl
    # plain torchrun started from a terminal: the workers inherit its stdin, which stays open
    # and never gets a line (`tail -f /dev/null |` stands in for the idle terminal)
    tail -f /dev/null | $NICE timeout 120 $TORCHRUN --nproc_per_node 4 --master_port 30301 train.py \
        > $OUT/1801-torchrun-intent-bag.log 2>&1
    echo "torchrun exit status ${PIPESTATUS[1]}"
}

case_1802() {
    setup 1802 j1802_dlworker_deadlock_spawn.py
    $PY $HERE/prep.py 1802
    # mp.spawn; the deadlocked DataLoader workers of the hung rank outlive it (they are stuck
    # in a lock, not in their parent-alive check), so the job runs in its own session and the
    # whole session is killed afterwards
    setsid $NICE timeout 120 $PY train.py --world 3 --port 30302 > $OUT/1802-spawn-session-gru.log 2>&1 &
    local sid=$!
    wait $sid
    echo "spawn exit status $?"
    kill -KILL -- -$sid 2>/dev/null
}

case_1803() {
    setup 1803 j1803_cached_images.py j1803_start.sh memwatch.py
    $PY $HERE/prep.py 1803
    local D=$OUT/1803-bg-image-cache
    rm -rf $D; mkdir -p $D
    # four background ranks with a log file each (j1803_start.sh -> launch.out); the node's
    # memory guard (memwatch.py, 700 MiB per process) watches the job's session
    MASTER_PORT=30303 setsid $NICE timeout 120 bash j1803_start.sh > $D/launch.out 2>&1 &
    local sid=$!
    sleep 0.5
    $PY memwatch.py 700 $sid > $D/memwatch.log 2>&1
    wait $sid
    echo "start script exit status $?"
    cp logs/rank-*.log $D/
}

case_1804() {
    setup 1804 j1804_doc_classifier_pad.py
    $PY $HERE/prep.py 1804
    local D=$OUT/1804-torchrun-redirects-doccls
    rm -rf $D; mkdir -p $D
    # the batch partition's per-process address-space limit (ulimit -v, ~3.8 GiB);
    # torchrun --redirects 2: the workers' stderr goes only to torchrun_logs/.../N/stderr.log,
    # their stdout (the job's logging) to the console
    ulimit -v 4000000
    $NICE timeout 120 $TORCHRUN --nproc_per_node 3 --master_port 30304 --rdzv_id doccls --redirects 2 \
        --log_dir $D/torchrun_logs train.py > $D/console.log 2>&1
    echo "torchrun exit status $?"
}

case_1805() {
    setup 1805 j1805_speaker_emb_fastrec.py j1805_start.sh fastrec.py
    $PY $HERE/prep.py 1805
    # four background ranks writing to one console, no prefixes; the start script waits for
    # each pid in turn (bash reports a rank that died of a signal)
    MASTER_PORT=30305 $NICE timeout 120 bash j1805_start.sh > $OUT/1805-shell-console-speaker-emb.log 2>&1
    echo "start script exit status $?"
}

case_1806() {
    setup 1806 j1806_multilingual_tok_spawn.py nativetok.py
    $PY $HERE/prep.py 1806
    $NICE timeout 120 $PY train.py --world 3 --port 30306 > $OUT/1806-spawn-multilingual-bag.log 2>&1
    echo "spawn exit status $?"
}

case_1807() {
    setup 1807 j1807_tagger_label_map.py j1807_start.sh
    local D=$OUT/1807-tagger-rank-logs
    rm -rf $D; mkdir -p $D
    # four background ranks, each writing only to logs/wR.log; no launcher output
    MASTER_PORT=30307 $NICE timeout 120 bash j1807_start.sh > /dev/null 2>&1
    echo "start script exit status $?"
    cp logs/w*.log $D/
}

case_1808() {
    setup 1808 j1808_ctr_epoch_budget.py
    $PY $HERE/prep.py 1808
    # torchrun --tee 3: both streams of every worker on the console with [defaultN]: prefixes
    $NICE timeout 120 $TORCHRUN --nproc_per_node 4 --master_port 30308 --tee 3 train.py \
        > $OUT/1808-torchrun-tee-ctr.log 2>&1
    echo "torchrun exit status $?"
}

case_1809() {
    setup 1809 j1809_regressor_ckpt_barrier.py
    # the step-20 checkpoint is left over from an earlier attempt that crashed after saving it
    mkdir -p ckpt
    $PY -c "import torch; torch.save({'step': 20}, 'ckpt/step-000020.pt')"
    $NICE timeout 120 $TORCHRUN --nproc_per_node 3 --master_port 30309 train.py \
        > $OUT/1809-torchrun-tabular-ckpt.log 2>&1
    echo "torchrun exit status $?"
}

case_1810() {
    setup 1810 j1810_seq2vec_spawn_healthy.py
    # control: rank 2's local cache is cold for one chunk (a 7 s read that completes)
    mkdir -p cache
    echo "1 3" > cache/cold-2.txt
    $NICE timeout 120 $PY train.py --world 3 --port 30310 > $OUT/1810-spawn-seq2vec.log 2>&1
    echo "spawn exit status $?"
}

case_1811() {
    setup 1811 j1811_autoencoder_torchrun.py
    local D=$OUT/1811-torchrun-redirects-dae
    rm -rf $D; mkdir -p $D
    # control: healthy job under torchrun --redirects 3 --log_dir; 16 s in, Ctrl-C (SIGINT to
    # the launcher's whole process group).  sigdfl.py resets SIGINT to its default first (a
    # background job of a non-interactive shell starts with SIGINT ignored).  No coreutils
    # timeout in front (it would not pass the group signal the same way); a watchdog instead.
    setsid $NICE $PY $HERE/sigdfl.py $TORCHRUN --nproc_per_node 3 --master_port 30311 --rdzv_id dae \
        --redirects 3 --log_dir $D/torchrun_logs train.py > $D/console.log 2>&1 &
    local tr=$!
    watchdog 120 $tr
    local wd=$!
    sleep 16
    kill -INT -- -$tr
    wait $tr
    echo "torchrun exit status $?"
    kill $wd 2>/dev/null
}

case_1812() {
    setup 1812 j1812_forecaster_netfs.py j1812_start.sh netfs.py
    $PY $HERE/prep.py 1812
    local D=$OUT/1812-forecaster-node-logs
    rm -rf $D; mkdir -p $D
    # four background ranks, one "node" each, one log file each; start.out has the start
    # script's own lines (start time, exit statuses)
    MASTER_PORT=30312 $NICE timeout 120 bash j1812_start.sh > $D/start.out 2>&1
    echo "start script exit status $?"
    cp logs/fc-n0*.log $D/
}

#CASES_END

# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1801 1812))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
