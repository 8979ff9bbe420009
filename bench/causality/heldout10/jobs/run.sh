#!/bin/bash
# Re-runs the held-out set 10 cases and writes the captured output next to
# this directory (../NNN-slug.log, or ../912-encoder-finetune/ for the
# per-rank-directory case).
#
#   usage: bash run.sh            # all cases
#          bash run.sh 903 915    # selected cases
#
# Needs: Debian python3-torch (1.13.1, CPU, gloo), python3-tqdm, and for the
# Slurm cases (902 907 910 921 923) slurm-wlm + munge (started below if no
# controller answers).  Each case runs in its own scratch dir under $RUN so
# tracebacks show /tmp/hx10/NNN/train.py.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(dirname "$HERE")
PY=/usr/bin/python3
RUN=${RUN:-/tmp/hx10}
LAUNCH="$PY $HERE/launch.py"
SLURM_DIR=${SLURM_DIR:-/tmp/slurm10}
export SLURM_CONF=$SLURM_DIR/slurm.conf
unset RANK WORLD_SIZE LOCAL_RANK MASTER_ADDR MASTER_PORT

setup() {  # setup NNN job.py [extra files...]
    local n=$1 job=$2; shift 2
    rm -rf "$RUN/$n"; mkdir -p "$RUN/$n"
    cp "$HERE/$job" "$RUN/$n/train.py"
    cp "$HERE/trainlib.py" "$RUN/$n/"
    for f in "$@"; do cp "$HERE/$f" "$RUN/$n/"; done
    cd "$RUN/$n" || exit 1
}

slurm_up() {
    if sinfo -h >/dev/null 2>&1; then return 0; fi
    mkdir -p /run/munge && chown munge:munge /run/munge
    pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged
    mkdir -p $SLURM_DIR/{state,spool,log}
    local H; H=$(hostname -s)
    cat > $SLURM_CONF <<EOF
ClusterName=hx10
SlurmctldHost=$H
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
MpiDefault=none
KillWait=5
NodeName=$H CPUs=$(nproc) RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
    slurmctld -D -f $SLURM_CONF > $SLURM_DIR/log/ctld.out 2>&1 & echo $! > $SLURM_DIR/ctld.mypid
    sleep 3
    slurmd -D -f $SLURM_CONF > $SLURM_DIR/log/d.out 2>&1 & echo $! > $SLURM_DIR/d.mypid
    for i in $(seq 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && return 0; sleep 1; done
    echo "slurm did not come up" >&2; return 1
}

# ---------------------------------------------------------------- cases
case_901() {
    setup 901 j901_csv_shards.py
    $PY $HERE/prep_csv_shards.py
    $LAUNCH --nproc 4 --port 29601 --prefix rank --summary table --grace 3 -- $PY train.py \
        > $OUT/901-ddp-csv-shards.log 2>&1
}

case_902() {
    slurm_up || return 1
    setup 902 j902_resume_optim_shard.py
    $PY $HERE/prep_resume_ckpt.py
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29602 srun --label -n 4 --overcommit -J resume-mlp $PY train.py \
        > $OUT/902-srun-resume-mlp.log 2>&1
}

case_903() {
    setup 903 j903_eval_rank_config.py
    $PY $HERE/prep_config_903.py
    $LAUNCH --nproc 4 --port 29603 --prefix default --grace 3 -- $PY train.py config.json \
        > $OUT/903-ddp-eval-on-last-rank.log 2>&1
}

case_904() {
    setup 904 j904_onehot_shards.py
    $PY $HERE/prep_tabular_904.py
    # kubectl logs -f --prefix style output of a PyTorchJob (master-0 = rank 0, worker-i = rank i+1)
    $LAUNCH --nproc 3 --port 29604 --prefix k8s --jobid tabular-ddp --quiet --summary none \
        --on-failure wait -- $PY train.py > $OUT/904-k8s-tabular-ddp.log 2>&1
}

case_905() {
    setup 905 j905_recall_metric.py
    bash -c 'export MASTER_ADDR=127.0.0.1 MASTER_PORT=29605 WORLD_SIZE=3
             for r in 0 1 2; do RANK=$r LOCAL_RANK=$r /usr/bin/python3 train.py & done; wait' \
        > $OUT/905-recall-metric-3proc.log 2>&1
}

case_906() {
    setup 906 j906_config_interp.py
    $PY $HERE/prep_config_906.py
    { $LAUNCH --nproc 4 --port 29606 --log-dir logs --no-console --grace 2 -- $PY train.py run_config.json
      tail -n 25 logs/*.log; } > $OUT/906-tail-per-rank-logs.log 2>&1
}

case_907() {
    slurm_up || return 1
    setup 907 j907_shard_checksum.py j907.sbatch
    $PY $HERE/prep_shards_907.py
    local jid; jid=$(sbatch --parsable --wait j907.sbatch)
    cp slurm-$jid.out $OUT/907-sbatch-tinylm-json.log
}

case_908() {
    setup 908 j908_stale_index.py j908_launch.sh
    $PY $HERE/prep_index_908.py
    bash j908_launch.sh > $OUT/908-bash-jobs-index-loader.log 2>&1
}

case_909() {
    setup 909 j909_cache_oom.py
    $LAUNCH --nproc 4 --port 29609 --grace 4 -- $PY train.py > $OUT/909-cached-shard-training.log 2>&1
}

case_910() {
    slurm_up || return 1
    setup 910 j910_native_decode.py
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29610 srun --label -K -n 4 --overcommit -J textcls $PY train.py \
        > $OUT/910-srun-textcls.log 2>&1
}

case_911() {
    setup 911 j911_wait_ready.py
    bash $HERE/prep_parts_911.sh
    $LAUNCH --nproc 4 --port 29611 --grace 3 --term-timeout 5 -- $PY train.py \
        > $OUT/911-streaming-parts.log 2>&1
}

case_912() {
    setup 912 j912_encoder_startup.py
    $PY $HERE/prep_encoder_912.py
    rm -rf $OUT/912-encoder-finetune; mkdir -p $OUT/912-encoder-finetune
    $LAUNCH --nproc 4 --port 29612 --log-dir $OUT/912-encoder-finetune --no-console --on-failure wait \
        -- $PY train.py > $OUT/912-encoder-finetune/launcher.log 2>&1
}

case_913() {
    setup 913 j913_two_failures.py
    $PY $HERE/prep_913.py
    $LAUNCH --nproc 4 --port 29613 --quiet --summary none --on-failure wait -- $PY train.py \
        > $OUT/913-class-weighted-4proc.log 2>&1
}

case_914() {
    setup 914 j914_nonfinite_loss.py j914_launch.sh
    $PY $HERE/prep_914.py
    bash j914_launch.sh > $OUT/914-sensor-readings.log 2>&1
}

case_915() {
    setup 915 j915_collate_none.py
    $PY $HERE/prep_915.py
    # docker-compose style prefixes: service trainer-1..4 runs RANK 0..3
    $LAUNCH --nproc 4 --port 29615 --prefix compose --quiet --summary none --on-failure wait \
        -- $PY train.py > $OUT/915-compose-filelist-tqdm.log 2>&1
}

case_916() {
    setup 916 j916_local_cache_full.py
    bash $HERE/prep_916.sh
    $LAUNCH --nproc 4 --port 29616 --prefix host --hosts node-a:2,node-b:2 --grace 3 -- $PY train.py \
        > $OUT/916-two-node-feature-cache.log 2>&1
}

case_917() {
    setup 917 j917_cpu_affinity.py j917_launch.sh
    bash j917_launch.sh > $OUT/917-affinity-ddp-2proc.log 2>&1
}

case_918() {
    setup 918 j918_distill.py
    $PY $HERE/prep_918.py
    $LAUNCH --nproc 3 --port 29618 --log-dir logs --no-console --quiet --summary none --grace 3 \
        -- $PY train.py >/dev/null 2>&1
    for f in logs/rank*.log; do echo "----- $f -----"; cat "$f"; done > $OUT/918-distill-rank-logs.log 2>&1
}

case_919() {
    setup 919 j919_ddp_unused.py
    # mpirun --tag-output style: [jobid,rank]<stream>:
    $LAUNCH --nproc 3 --port 29619 --prefix mpi --jobid 1 --quiet --summary none --grace 3 \
        -- $PY train.py > $OUT/919-mpi-multitask-ddp.log 2>&1
}

case_920() {
    setup 920 j920_healthy_warnings.py
    $LAUNCH --nproc 3 --port 29620 --summary simple -- $PY train.py > $OUT/920-ddp-mlp-3proc.log 2>&1
}

case_921() {
    slurm_up || return 1
    setup 921 j921_cancelled.py j921.sbatch
    local jid; jid=$(sbatch --parsable j921.sbatch)
    for i in $(seq 120); do squeue -h -j $jid -o %T | grep -q RUNNING && break; sleep 1; done
    sleep 14
    scancel $jid
    for i in $(seq 60); do squeue -h -j $jid 2>/dev/null | grep -q . || break; sleep 1; done
    sleep 1
    cp mlp-long-$jid.out $OUT/921-sbatch-mlp-long.log
}

case_922() {
    setup 922 j922_ctrl_c.py
    # the launcher forwards a Ctrl-C (SIGINT) to every worker after 12 s
    $LAUNCH --nproc 3 --port 29622 --interrupt-after 12 --quiet --summary none -- $PY train.py \
        > $OUT/922-ddp-mlp-interactive.log 2>&1
}

case_923() {
    slurm_up || return 1
    setup 923 j923_bad_length.py j923.sbatch
    $PY $HERE/prep_923.py
    local jid; jid=$(sbatch --parsable --wait j923.sbatch)
    cp seqpool-$jid.out $OUT/923-sbatch-seqpool.log
}

case_924() {
    setup 924 j924_vocab_encoding.py
    $PY $HERE/prep_924.py
    $LAUNCH --nproc 3 --port 29624 --quiet --summary simple --on-failure wait -- $PY train.py \
        > $OUT/924-mt-encoder-glog.log 2>&1
}

cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(seq 901 924))
for c in "${cases[@]}"; do
    echo "== case $c ($(date +%T))"
    ( case_$c )
done
