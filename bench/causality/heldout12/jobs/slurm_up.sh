# sourced by run.sh: starts a one-node Slurm 22.05 (munge + slurmctld + slurmd) if none answers
SLURM_DIR=${SLURM_DIR:-/tmp/slurm12}
export SLURM_CONF=$SLURM_DIR/slurm.conf
slurm_up() {
    if sinfo -h >/dev/null 2>&1; then return 0; fi
    mkdir -p /run/munge && chown munge:munge /run/munge
    pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged
    mkdir -p $SLURM_DIR/{state,spool,log}
    local H; H=$(hostname -s)
    cat > $SLURM_CONF <<EOF
ClusterName=hx12
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
SlurmctldPort=16827
SlurmdPort=16828
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
MpiDefault=none
KillWait=5
OverTimeLimit=0
NodeName=$H CPUs=$(nproc) RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
    slurmctld -D -f $SLURM_CONF > $SLURM_DIR/log/ctld.out 2>&1 & echo $! > $SLURM_DIR/ctld.mypid
    sleep 3
    slurmd -D -f $SLURM_CONF > $SLURM_DIR/log/d.out 2>&1 & echo $! > $SLURM_DIR/d.mypid
    for i in $(seq 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && return 0; sleep 1; done
    echo "slurm did not come up" >&2; return 1
}
