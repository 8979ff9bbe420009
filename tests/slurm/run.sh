#!/usr/bin/env bash
# A real single-node Slurm (slurmctld + slurmd + munged on localhost, configured in a temporary
# directory, stopped at the end) runs a job array whose tasks train a small real PyTorch model on
# CPU through `denpex run`, each failing its own way; `denpex triage` over the array's outputs must
# count and name them right. This is the recipe of docs/cluster.md, end to end.
# Usage: run.sh DENPEX SRC_DIR. Skips (77) without Slurm, munge, root or torch, except under CI=true.
set -uo pipefail
denpex=$1
src=$2
skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: $1; under CI=true this test must run (scripts/test.sh installs slurm-wlm and munge)" >&2
    exit 1
  fi
  echo "SKIP: $1" >&2
  exit 77
}
for tool in slurmctld slurmd munged mungekey sbatch squeue sinfo scancel; do
  command -v "$tool" >/dev/null || skip "$tool not found (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root here"
/usr/bin/python3 -c 'import torch' 2>/dev/null || skip "/usr/bin/python3 cannot import torch (apt-get install python3-torch)"

work=$(mktemp -d /tmp/denpex-slurm-XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  SLURM_CONF=$work/slurm.conf scancel --quiet --user=root 2>/dev/null
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  [ -n "${DENPEX_SLURM_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $1" >&2
  for f in "$work"/*.log; do echo "--- $f" >&2; tail -20 "$f" >&2; done
  exit 1
}

# Ports nobody uses now; the daemons talk to each other through them (denpex never does).
read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cpus=$(nproc)

mungekey --create --keyfile="$work/munge.key" >/dev/null 2>&1 || fail "mungekey could not create a key"
chmod 400 "$work/munge.key"
munged --foreground --force --socket="$work/munge.sock" --key-file="$work/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed" &
pids+=($!)

mkdir -p "$work/state" "$work/spool" "$work/out" "$work/bin"
# The epilog of docs/cluster.md, as written there, with this build's denpex on its PATH.
ln -s "$denpex" "$work/bin/denpex"
{
  echo '#!/bin/bash'
  echo "export PATH=$work/bin:/usr/bin:/bin"
  sed -n '/^# \/etc\/slurm\/epilog.d\/denpex.sh/,/^exit 0$/p' "$src/docs/cluster.md"
} >"$work/epilog.sh"
chmod +x "$work/epilog.sh"
grep -q 'denpex diagnose' "$work/epilog.sh" || fail "no epilog recipe found in docs/cluster.md"
cat >"$work/slurm.conf" <<CONF
ClusterName=denpextest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
Epilog=$work/epilog.sh
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$work/slurm.conf
for i in $(seq 50); do [ -S "$work/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/slurmd.out.log" 2>&1 &
pids+=($!)
ready=""
for i in $(seq 100); do
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -1)
  [ "$state" = "idle" ] && ready=1 && break
  sleep 0.2
done
[ -n "$ready" ] || fail "the Slurm node did not become idle (state: ${state:-none})"

# The recipe of docs/cluster.md: `denpex run` wraps the training step inside the batch script.
cat >"$work/train.sbatch" <<SB
#!/bin/bash
#SBATCH --job-name=denpex-array
#SBATCH --output=$work/out/slurm-%A_%a.out
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
export OMP_NUM_THREADS=1
exec "$denpex" run -- srun /usr/bin/python3 "$src/tests/slurm/task.py"
SB
job=$(sbatch --parsable --array=0-3 "$work/train.sbatch") || fail "sbatch refused the job array"
for i in $(seq 300); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.2
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "the job array did not finish in 60 s"
ls "$work/out"/slurm-"${job}"_*.out >/dev/null 2>&1 || fail "the array wrote no output"
for f in "$work/out"/*.out; do echo "=== $f"; cat "$f"; done

# The epilog kept a diagnosis next to each failed task's output, and none for the healthy one.
for task in 1 2 3; do
  [ -s "$work/out/slurm-${job}_$task.out.denpex.json" ] || fail "the epilog wrote no diagnosis for task $task"
done
[ ! -e "$work/out/slurm-${job}_0.out.denpex.json" ] || fail "the epilog wrote a diagnosis for the healthy task"

"$denpex" triage --job-glob 'slurm-*.out' --format json "$work/out" >"$work/triage.json"
rc=$?
"$denpex" triage --job-glob 'slurm-*.out' --color never "$work/out"
[ $rc -eq 1 ] || fail "triage exited $rc, not 1 (failures found)"
/usr/bin/python3 - "$work/triage.json" "$job" <<'PY' || fail "triage's counts or entries are wrong"
import json, sys
t = json.load(open(sys.argv[1]))
job = sys.argv[2]
s = t["summary"]
by_task = {j["job"].rsplit("_", 1)[1].split(".")[0]: j for j in t["jobs"]}
entry = lambda k: (by_task[k]["diagnoses"] or [{}])[0].get("entry")
problems = []
def expect(what, got, want):
    if got != want:
        problems.append(f"{what}: {got!r}, expected {want!r}")
expect("jobs", s["jobs"], 4)
expect("failed", s["failed"], 3)
expect("no_failure", s["no_failure"], 1)
expect("task 0 (healthy)", [d["entry"] for d in by_task["0"]["diagnoses"] if d["severity"] in ("fatal", "error")], [])
expect("task 1 (NaN raised)", entry("1"), "nan-loss-check-raised")
expect("task 2 (KeyError)", entry("2"), "unrecognized-exception")
expect("task 3 (SIGKILL)", entry("3"), "slurm-task-exited-nonzero")
expect("task 3's signal", by_task["3"]["diagnoses"][0]["evidence"]["captures"].get("signal"), "Killed")
counts = {g["entry"]: g["count"] for g in s["by_entry"]}
for e in ("nan-loss-check-raised", "unrecognized-exception", "slurm-task-exited-nonzero"):
    expect(f"by_entry[{e}]", counts.get(e), 1)
for p in problems:
    print("  " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
echo "ok: a 4-task Slurm job array triaged: 3 failures named right, 1 healthy; the epilog diagnosed the 3 failed tasks"
