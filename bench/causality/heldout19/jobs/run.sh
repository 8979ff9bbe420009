#!/bin/bash
# Re-runs the held-out set 19 cases (1901-1912) and writes the captured output next to
# this directory (../NNNN-slug.log, or ../NNNN-slug/ for directory cases), unless OUT is set.
#
#   usage: bash run.sh              # all cases
#          bash run.sh 1903 1907    # selected cases
#
# Needs: Debian python3-torch (1.13, CPU, gloo), python3-pil, slurm-wlm (slurmctld, slurmd,
# srun, scancel; run as root), pdsh (exec rcmd module), coreutils timeout/fold.
# Each case runs in its own scratch dir $RUN/NNNN (default /tmp/hx19/NNNN), where the job is
# copied as train.py next to hx19lib.py.  torchrun runs through heldout13's trun.py (fixes
# torch 1.13's Std.from_str on Python 3.11; otherwise stock).  Every job runs under
# `nice -n 15`.  The Slurm cases use a throw-away two-node cluster on this machine (slurmctld
# plus two slurmd, gpu-a01 and gpu-a02, auth/none) whose config and state live in $RUN/slurm.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(dirname "$HERE")}
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx19}
NICE="nice -n 15"
TORCHRUN="$PY $HERE/../../heldout13/jobs/trun.py"
unset RANK WORLD_SIZE LOCAL_RANK MASTER_ADDR MASTER_PORT
# output buffering must not depend on the caller's environment (1908 relies on it)
unset PYTHONUNBUFFERED
export SLURM_CONF=$RUN/slurm/slurm.conf

setup() {  # setup NNNN job.py [extra files...]
    local n=$1 job=$2; shift 2
    rm -rf "$RUN/$n"; mkdir -p "$RUN/$n"
    cp "$HERE/$job" "$RUN/$n/train.py"
    cp "$HERE/hx19lib.py" "$RUN/$n/"
    for f in "$@"; do cp "$HERE/$f" "$RUN/$n/"; done
    cd "$RUN/$n" || exit 1
}

slurm_up() {  # start the local two-node Slurm cluster unless it is already answering
    local S=$RUN/slurm
    # already up (started by an earlier case of this run)?  (sinfo itself would wait about a
    # minute for a controller that is not there)
    if [ -s $S/slurmctld.pid ] && kill -0 $(cat $S/slurmctld.pid) 2>/dev/null; then return 0; fi
    mkdir -p $S/state $S/spool/gpu-a01 $S/spool/gpu-a02 $S/log
    sed "s#@DIR@#$S#g; s#@HOST@#$(hostname)#g" "$HERE/slurm.conf.in" > $S/slurm.conf
    touch $S/.started-by-run.sh
    $NICE slurmctld -i
    sleep 1
    $NICE slurmd -N gpu-a01
    $NICE slurmd -N gpu-a02
    for i in $(seq 20); do sinfo -h -t idle 2>/dev/null | grep -q idle && break; sleep 1; done
    sleep 2
}

# ---------------------------------------------------------------- cases
case_1901() {
    setup 1901 j1901_cnn_png.py
    $PY $HERE/prep.py 1901
    slurm_up
    # srun --label: every line gets the task id; -K kills the step when a task fails
    MASTER_PORT=30901 timeout 150 srun --label -K -N 2 -n 4 --ntasks-per-node 2 -O -J cnn-png \
        $NICE $PY train.py > $OUT/1901-srun-label-cnn-png.log 2>&1
    echo "srun exit status $?"
}

case_1902() {
    setup 1902 j1902_demand_nodelocal_ckpt.py
    # node-local scratch disks; trn-b's is a small tmpfs still full of an old run's files
    mkdir -p scratch/trn-a scratch/trn-b
    mount -t tmpfs -o size=512k tmpfs scratch/trn-b
    dd if=/dev/zero of=scratch/trn-b/old-run-resume.pt bs=4k count=124 status=none
    df -k scratch/trn-b | tail -1
    # DeepSpeed-style multinode start: pdsh runs one torchrun agent per host, each line of
    # a host's output gets pdsh's `host: ` prefix
    $NICE timeout 150 pdsh -S -f 1024 -R exec -w trn-a,trn-b bash -c \
        "cd $RUN/1902 && export NODE_NAME=%h && exec $TORCHRUN --nnodes 2 --node_rank %n --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 30902 train.py" \
        > $OUT/1902-pdsh-two-node-demand.log 2>&1
    echo "pdsh exit status $?"
    umount scratch/trn-b
}

case_1903() {
    setup 1903 j1903_session_recsys_csv.py pods.sh entrypoint.sh
    $PY $HERE/prep.py 1903
    # four "pods" (job-master-0, job-worker-0..2), then their logs the way
    # `kubectl logs -l ... --prefix --tail=-1` prints them (jobs/kubelogs.py)
    $NICE timeout 150 bash pods.sh recsys 3 30903
    echo "pods exit status $?"
    $PY $HERE/kubelogs.py --container pytorch pods/*.log > $OUT/1903-kubectl-prefix-recsys.log
}

case_1904() {
    setup 1904 j1904_catalog_classifier.py
    $PY $HERE/prep.py 1904
    # one pod running plain torchrun (4 workers); the log is what a user copies out of
    # k9s's log view of that pod (jobs/k9sbox.py draws the frame, wrap on)
    $NICE timeout 150 $TORCHRUN --nproc_per_node 4 --master_port 30904 train.py > raw.log 2>&1
    echo "torchrun exit status $?"
    $PY $HERE/k9sbox.py --title 'ml-train/catalog-cls-5c7f9d8b4-x2kqp:trainer' --width 118 \
        < raw.log > $OUT/1904-k9s-box-catalog-classifier.log
}

case_1905() {
    setup 1905 j1905_hvac_anomaly_mode.py
    $PY $HERE/prep.py 1905
    # torchrun --tee 3 ([defaultN]: prefixes); the log is then hard-wrapped at 100 columns,
    # as a ticket system or a mail client does
    $NICE timeout 150 $TORCHRUN --nproc_per_node 3 --master_port 30905 --tee 3 train.py 2>&1 \
        | fold -w 100 > $OUT/1905-fold100-torchrun-tee-hvac.log
    echo "torchrun exit status ${PIPESTATUS[0]}"
}

case_1906() {
    setup 1906 j1906_toxicity_jsonlog.py j1906_start.sh
    $PY $HERE/prep.py 1906
    # four background ranks in one container, JSON-lines logging to its stdout
    MASTER_PORT=30906 $NICE timeout 150 bash j1906_start.sh > $OUT/1906-jsonlines-toxicity.log 2>&1
    echo "start script exit status $?"
}

case_1907() {
    setup 1907 j1907_credit_scorer_logging.py
    $PY $HERE/prep.py 1907
    slurm_up
    # plain srun (no --label), two nodes; logging carries rank= and node= fields
    MASTER_PORT=30907 timeout 150 srun -N 2 -n 4 --ntasks-per-node 2 -O -J credit \
        $NICE $PY train.py > $OUT/1907-srun-logging-credit.log 2>&1
    echo "srun exit status $?"
}

case_1908() {
    setup 1908 j1908_char_gru_buffered.py j1908_chargru.sbatch
    $PY $HERE/prep.py 1908
    slurm_up
    # a batch job: sbatch runs the script, whose srun starts 3 tasks; the output file is
    # slurm-JOBID.out, and the tasks' stdout is block-buffered (no -u, PYTHONUNBUFFERED unset)
    MASTER_PORT=30908 timeout 150 sbatch --wait j1908_chargru.sbatch
    echo "sbatch exit status $?"
    cp slurm-*.out $OUT/1908-sbatch-buffered-char-gru.log
}

case_1909() {
    setup 1909 j1909_wind_power_cache.py
    $PY $HERE/prep.py 1909
    slurm_up
    local D=$OUT/1909-srun-per-task-files-wind
    rm -rf $D; mkdir -p $D
    # srun -o: one output file per task (stdout and stderr together); console.log has what
    # srun itself printed.  The run turns the feature cache on with a config override.
    MASTER_PORT=30909 timeout 150 srun -N 2 -n 4 --ntasks-per-node 2 -O -J wind -o "$D/wind-%j-%t.out" \
        $NICE $PY train.py --set data.use_cache=true > $D/console.log 2>&1
    echo "srun exit status $?"
}

case_1910() {
    setup 1910 j1910_seg_lite_warnings.py pods.sh entrypoint.sh
    # control: a healthy PyTorchJob (master-0, worker-0, worker-1) that prints real warnings
    $NICE timeout 150 bash pods.sh seglite 2 30910
    echo "pods exit status $?"
    $PY $HERE/kubelogs.py --container pytorch pods/*.log > $OUT/1910-kubectl-prefix-seg-lite.log
}

case_1911() {
    setup 1911 j1911_tiny_transformer.py
    slurm_up
    # control: a healthy srun --label job; 15 s after its start the user cancels it
    # (scancel of the job id, from another shell)
    MASTER_PORT=30911 timeout 150 srun --label -N 2 -n 4 --ntasks-per-node 2 -O -J tinylm-1911 \
        $NICE $PY train.py > $OUT/1911-srun-label-scancel-tiny-lm.log 2>&1 &
    local sr=$!
    sleep 15
    local jid=$(squeue -h -n tinylm-1911 -o %i | head -1)
    echo "scancel $jid"
    scancel $jid
    wait $sr
    echo "srun exit status $?"
}

case_1912() {
    setup 1912 j1912_wide_deep_warnings.py
    # control: a healthy two-host job started DeepSpeed-style through pdsh
    $NICE timeout 150 pdsh -S -f 1024 -R exec -w trn-a,trn-b bash -c \
        "cd $RUN/1912 && export NODE_NAME=%h && exec $TORCHRUN --nnodes 2 --node_rank %n --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 30912 train.py" \
        > $OUT/1912-pdsh-two-node-wide-deep.log 2>&1
    echo "pdsh exit status $?"
}

#CASES_END

# ---------------------------------------------------------------- main
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 1901 1912))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
# stop the local Slurm cluster again if this run started it
if [ -e $RUN/slurm/.started-by-run.sh ]; then
    scontrol shutdown >/dev/null 2>&1
    rm -f $RUN/slurm/.started-by-run.sh
fi
