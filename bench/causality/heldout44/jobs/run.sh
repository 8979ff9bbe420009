#!/bin/bash
# re-runs the jobs of set 44 through the local Slurm (SLURM_CONF must point at the helper's slurm.conf)
# usage: cd bench/causality/heldout44 && bash jobs/run.sh [4401 ...]
set -u
SET=$(pwd)
J=$SET/jobs
PY=/usr/bin/python3
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1
: "${SLURM_CONF:?export SLURM_CONF=/tmp/helper44/slurm.conf}"
cases=${*:-4401 4402 4403 4404 4405 4406 4407}
$PY $J/prep_data.py
for c in $cases; do
case $c in
4401)
  MASTER_PORT=29851 nice -n 15 timeout 120 srun -n 4 --overcommit --kill-on-bad-exit=1 -J ctr-clicks $PY $J/ctr_4401.py > $SET/4401-srun-kill-bad-exit-ctr-parts.log 2>&1 ;;
esac
done
for c in $cases; do
case $c in
4402)
  D=$SET/4402-srun-task-files-tagger-curriculum; rm -rf $D; mkdir -p $D; cd $D
  MASTER_PORT=29852 nice -n 15 timeout 120 srun -n 4 --overcommit -J tagger -o out-%t.log -e err-%t.log $PY $J/tagger_4402.py > srun-console.txt 2>&1
  cd $SET ;;
esac
done
for c in $cases; do
case $c in
4403)
  D=$SET/4403-sbatch-output-kws-cnn; rm -rf $D; mkdir -p $D; cd $D
  nice -n 15 timeout 120 sbatch --wait $J/kws_4403.sbatch
  cd $SET ;;
esac
done
for c in $cases; do
case $c in
4404)
  # one srun task per fake node, each running torchrun (through the shim) with 2 workers
  nice -n 15 timeout 120 srun -n 2 --overcommit -J seqrec --label bash -c "$PY $J/trun.py --nnodes 2 --nproc_per_node 2 --node_rank \$SLURM_PROCID --master_addr 127.0.0.1 --master_port 29854 --tee 3 $J/seqrec_4404.py" > $SET/4404-srun-label-torchrun-nodes-seqrec.log 2>&1 ;;
esac
done
for c in $cases; do
case $c in
4405)
  MASTER_PORT=29855 nice -n 15 timeout 120 srun -n 4 --overcommit -J patch-vae --unbuffered $PY $J/vae_4405.py > $SET/4405-srun-unbuffered-vae-rss-guard.log 2>&1 ;;
esac
done
for c in $cases; do
case $c in
4406)
  D=$SET/4406-sbatch-signal-usr1-time-limit-char-lstm; rm -rf $D; mkdir -p $D; cd $D
  nice -n 15 timeout 150 sbatch --wait $J/lm_4406.sbatch
  cd $SET ;;
esac
done
for c in $cases; do
case $c in
4407)
  # healthy job: requeued from outside after ~15 s, then the second attempt is scancel'ed ~15 s in
  D=$SET/4407-sbatch-append-requeue-scancel-tab-mlp; rm -rf $D; mkdir -p $D; cd $D
  rm -f /tmp/helper44/ckpt-4407.pt
  jid=$(sbatch --parsable $J/mlp_4407.sbatch)
  for i in $(seq 60); do [ "$(squeue -h -j $jid -o %T)" = RUNNING ] && break; sleep 1; done
  sleep 15; scontrol requeue $jid
  sleep 3
  # a requeued batch job is held back by a begin-time delay; let it start now
  scontrol update JobId=$jid StartTime=now
  for i in $(seq 100); do [ "$(squeue -h -j $jid -o %T)" = RUNNING ] && break; sleep 1; done
  sleep 15; scancel $jid
  for i in $(seq 30); do [ -z "$(squeue -h -j $jid)" ] && break; sleep 1; done
  cd $SET ;;
esac
done
