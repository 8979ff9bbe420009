#!/bin/bash
# Re-runs the held-out set 20 cases (2001-2012) and writes the captured output next to this
# directory (../NNNN.log, or ../NNNN/ for directory cases), unless OUT is set.
#
#   usage: bash run.sh              # all cases
#          bash run.sh 2003 2007    # selected cases
#
# Needs: Debian python3-torch (1.13, CPU, gloo), coreutils timeout.  Each case runs in its own
# scratch dir $RUN/NNNN (default /tmp/hx20/NNNN), where the job is copied as train.py next to
# hx20lib.py and `prep.py NNNN` writes its input files.  torchrun runs through heldout13's
# trun.py (fixes torch 1.13's Std.from_str on Python 3.11; otherwise stock).  Every job runs
# under `nice -n 15`.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx20}
NICE="nice -n 15"
TORCHRUN="$PY $HERE/../../heldout13/jobs/trun.py"
unset RANK WORLD_SIZE LOCAL_RANK MASTER_ADDR MASTER_PORT
unset PYTHONUNBUFFERED

setup() {  # setup NNNN job.py [extra files...]
    local n=$1 job=$2; shift 2
    rm -rf "$RUN/$n"; mkdir -p "$RUN/$n"
    cp "$HERE/$job" "$RUN/$n/train.py"
    cp "$HERE/hx20lib.py" "$RUN/$n/"
    for f in "$@"; do cp "$HERE/$f" "$RUN/$n/"; done
    cd "$RUN/$n" || exit 1
    $PY $HERE/prep.py $n
}

# ---------------------------------------------------------------- cases
case_2001() {
    setup 2001 j2001_pos_tagger_meta.py
    # restarts configured: the same rank fails in every attempt, then the final table
    $NICE timeout 150 $TORCHRUN --nproc_per_node 3 --max_restarts 2 --master_port 32001 train.py \
        > $OUT/2001.log 2>&1
    echo "torchrun exit status $?"
}

case_2002() {
    setup 2002 j2002_weighted_sampler_sqlite.py j2002_compact_index.py
    # the index compaction of part 02 starts 5 s after the job and holds its lock 9 s; the
    # first attempt fails on it, the restart (after the lock is gone) runs to the end
    $PY j2002_compact_index.py data/index-02.sqlite 5 9 &
    $NICE timeout 150 $TORCHRUN --nproc_per_node 3 --max_restarts 1 --master_port 32002 train.py \
        > $OUT/2002.log 2>&1
    echo "torchrun exit status $?"
    wait
}

case_2003() {
    setup 2003 j2003_session_clicks_record.py
    # main() under @record: the failures table carries each worker's error and traceback
    $NICE timeout 150 $TORCHRUN --nproc_per_node 4 --master_port 32003 train.py > $OUT/2003.log 2>&1
    echo "torchrun exit status $?"
}

case_2004() {
    setup 2004 j2004_audio_patches_npy.py
    local D=$OUT/2004
    rm -rf $D; mkdir -p $D
    # --log_dir with --redirects 3 --tee 3 and one restart: console.log is the agent's console,
    # torchrun_logs/ the tree torchrun wrote (one attempt_K/ per attempt, one dir per local rank)
    $NICE timeout 150 $TORCHRUN --nproc_per_node 4 --max_restarts 1 --master_port 32004 \
        --rdzv_id audio-cls --log_dir $RUN/2004/torchrun_logs --redirects 3 --tee 3 train.py \
        > $D/console.log 2>&1
    echo "torchrun exit status $?"
    cp -r $RUN/2004/torchrun_logs $D/
}

case_2005() {
    setup 2005 j2005_credit_two_nodes_ddp.py
    local D=$OUT/2005
    rm -rf $D; mkdir -p $D
    # two torchrun agents acting as two nodes, c10d rendezvous on 127.0.0.1; each agent's
    # console goes to its own file
    local R="--nnodes 2 --nproc_per_node 2 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:32005 --rdzv_id credit-7f3"
    $NICE timeout 150 $TORCHRUN $R train.py > $D/node0.log 2>&1 &
    local p0=$!
    sleep 1
    $NICE timeout 150 $TORCHRUN $R train.py > $D/node1.log 2>&1
    echo "node1 torchrun exit status $?"
    wait $p0
    echo "node0 torchrun exit status $?"
}

case_2006() {
    setup 2006 j2006_intent_rank_logfiles.py
    local D=$OUT/2006
    rm -rf $D; mkdir -p $D
    # plain torchrun; the workers log to the console and to logs/worker-<host>-<pid>.log
    $NICE timeout 150 $TORCHRUN --nproc_per_node 4 --master_port 32006 train.py > $D/console.log 2>&1
    echo "torchrun exit status $?"
    cp -r logs $D/
}

case_2007() {
    setup 2007 j2007_vibration_checksum_thread.py
    $NICE timeout 150 $TORCHRUN --nproc_per_node 4 --master_port 32007 train.py > $OUT/2007.log 2>&1
    echo "torchrun exit status $?"
}

case_2008() {
    setup 2008 j2008_embed_two_agents_killed.py
    # two agents (static rendezvous, --node_rank 0/1), both consoles appended to one file;
    # 5 s after the workers are up, the worker that is global rank 1 is SIGKILLed from
    # outside (it stands in for the kernel's OOM killer)
    local R="--nnodes 2 --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 32008"
    : > $OUT/2008.log
    $NICE timeout 150 $TORCHRUN $R --node_rank 0 train.py >> $OUT/2008.log 2>&1 &
    local p0=$!
    $NICE timeout 150 $TORCHRUN $R --node_rank 1 train.py >> $OUT/2008.log 2>&1 &
    local p1=$!
    for i in $(seq 60); do [ $(ls pids 2>/dev/null | wc -l) -ge 4 ] && break; sleep 0.5; done
    sleep 5
    local victim=$(grep -lx 1 pids/*.pid | sed 's#pids/worker-##; s#\.pid##')
    echo "kill -9 $victim"
    kill -9 $victim
    wait $p0; echo "node0 torchrun exit status $?"
    wait $p1; echo "node1 torchrun exit status $?"
}

case_2009() {
    setup 2009 j2009_news_prefetch_thread.py
    $NICE timeout 150 $TORCHRUN --nproc_per_node 3 --master_port 32009 train.py > $OUT/2009.log 2>&1
    echo "torchrun exit status $?"
}

case_2010() {
    setup 2010 j2010_tabular_clean_restarts.py
    $NICE timeout 150 $TORCHRUN --standalone --nproc_per_node 3 --max_restarts 2 train.py > $OUT/2010.log 2>&1
    echo "torchrun exit status $?"
}

case_2011() {
    setup 2011 j2011_lm_ctrl_c_rank_files.py sigdfl.py
    local D=$OUT/2011
    rm -rf $D; mkdir -p $D
    # torchrun in its own session (process group); 18 s in, Ctrl-C = SIGINT to the whole
    # group.  A background watchdog stands in for `timeout` (which would forward the signal)
    setsid $NICE $PY sigdfl.py $TORCHRUN --nproc_per_node 4 --max_restarts 2 --master_port 32011 \
        train.py > $D/console.log 2>&1 &
    local pg=$!
    ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 120 & s=$!; wait $s; kill -KILL -- -$pg 2>/dev/null ) &
    local wd=$!
    sleep 18
    kill -INT -- -$pg
    wait $pg; echo "torchrun exit status $?"
    kill $wd 2>/dev/null; wait $wd 2>/dev/null
    cp -r logs $D/
}

case_2012() {
    setup 2012 j2012_class_balance_bincount.py
    # torchrun's own INFO logging on (LOGLEVEL=INFO): rendezvous, worker group state and
    # the restart decision are printed
    LOGLEVEL=INFO $NICE timeout 150 $TORCHRUN --nproc_per_node 4 --max_restarts 1 --master_port 32012 \
        train.py > $OUT/2012.log 2>&1
    echo "torchrun exit status $?"
}

# ---------------------------------------------------------------- main
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    mkdir -p "$OUT"
    cases=${*:-"2001 2002 2003 2004 2005 2006 2007 2008 2009 2010 2011 2012"}
    for c in $cases; do echo "== case $c"; "case_$c"; done
fi
