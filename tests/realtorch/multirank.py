"""Real 4-rank gloo jobs (Debian's python3-torch, CPU) that fail in the ways multi-rank jobs fail;
denpex must name the rank that started it, from the per-rank files and from the one interleaved
stream, or say that nothing failed. Exit 77: torch unavailable. With --keep DIR the real output is
left in DIR (to refresh fixtures)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

PY = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))

# scenario -> (launcher prefix, expected initiating rank or None for "no failure diagnosis",
#              expected entry or None for "any entry", whether the job itself fails)
SCENARIOS = {
    "unknown_exception": ("torchrun", 2, "unrecognized-exception", True),
    "sigkill": ("srun", 1, None, True),
    "hang": ("torchrun", 3, None, True),
    "nan_raise": ("srun", 0, "nan-loss-check-raised", True),
    "startup_failure": ("torchrun", 3, None, True),
    "two_failures": ("torchrun", 2, None, True),
    "healthy_warnings": ("torchrun", None, None, False),
    "sigint": ("srun", None, None, True),
    # rank 1 stalls in its own code past the peers' timeout: they time out, then it loses them
    "stall": ("torchrun", 1, None, True),
    # no launcher prefix: rank 2's logger names it in the message above the traceback it logs
    "logged_exception": ("none", 2, "unrecognized-exception", True),
    # one worker interrupted (kill -INT of its pid), no launcher prefix: the job failed, its peers
    # lost rank 1, whose own WARNING above its KeyboardInterrupt traceback names it
    "sigint_one": ("none", 1, "run-cancelled", True),
    # rank 2 all-reduces a longer gradient buffer: a peer's gloo aborts on the size check, and
    # only the ranks' own startup lines (parameter counts) say whose tensor differs
    "size_mismatch": ("srun", 2, "gloo-message-size-mismatch", True),
    # rank 3's DataLoader worker exits without a word: rank 3 raises "exited unexpectedly", a
    # symptom of its own worker, and its peers lose rank 3
    "dataloader_exit": ("torchrun", 3, "dataloader-worker-exited-unexpectedly", True),
    # no launcher prefix: rank 2's DataLoader worker cannot open its shard index; only the file's
    # name (`rank2.idx`, in the worker's traceback) says whose it was
    "shard_missing": ("none", 2, "dataloader-worker-exception", True),
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(denpex, target, label, rank, entry, env):
    d = subprocess.run([denpex, "diagnose", "--format", "json", target], capture_output=True, timeout=60, env=env)
    report = json.loads(d.stdout)
    diags = report["diagnoses"]
    brief = [(x["entry"], x["severity"], x["initiating_rank"]) for x in diags]
    print(f"{label}: exit {d.returncode}, {brief}")
    if rank is None:
        # Warnings may be reported as advisories (a warning-severity diagnosis), never a failure.
        failures = [x for x in diags if x["severity"] in ("fatal", "error")]
        if failures or (d.returncode != 0 and not diags):
            fail(f"{label}: expected no failure diagnosis, got {brief} (exit {d.returncode})")
        return
    if d.returncode != 1 or not diags:
        fail(f"{label}: expected a diagnosis, got none")
    top = diags[0]
    if top["initiating_rank"] != rank:
        fail(f"{label}: expected initiating rank {rank}, got {top['initiating_rank']} ({top['entry']}; "
             f"chain {top['chain']})")
    # A collateral entry may head the report only when no rank raised an error of its own (a
    # silent death or hang: the symptom is the peers', the rank named is the quiet one).
    if top["role"] == "collateral" and entry and top["entry"] != entry:
        fail(f"{label}: a collateral entry {top['entry']} is the top diagnosis")
    if entry and top["entry"] != entry:
        fail(f"{label}: expected entry {entry}, got {top['entry']}")


def saved(denpex, name, root):
    """The same checks on real output saved earlier (tests/fixtures/logs/multirank): no torch needed."""
    _, rank, entry, _ = SCENARIOS[name]
    env = dict(os.environ, NO_COLOR="1")
    check(denpex, os.path.join(root, name, "ranks"), "per-rank files (saved)", rank, entry, env)
    check(denpex, os.path.join(root, name, "job.log"), "interleaved stream (saved)", rank, entry, env)
    print("PASS")


def main():
    denpex, name = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 4 and sys.argv[3] == "--saved":
        return saved(denpex, name, sys.argv[4])
    keep = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--keep" else None
    if subprocess.run([PY, "-c", "import torch"], capture_output=True, timeout=120).returncode != 0:
        print("SKIP: /usr/bin/python3 cannot import torch")
        sys.exit(77)
    prefix, rank, entry, fails = SCENARIOS[name]
    env = dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1", PREFIX=prefix)
    with tempfile.TemporaryDirectory() as tmp:
        ranks = os.path.join(tmp, "ranks")
        os.makedirs(ranks)
        real = subprocess.run([PY, os.path.join(HERE, "jobs", "mr_launch.py"), name, ranks], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=200, env=env)
        stream = os.path.join(tmp, "job.log")
        open(stream, "wb").write(real.stdout)
        print(real.stdout.decode(errors="replace")[-4000:])
        if (real.returncode != 0) != fails:
            fail(f"the job exited {real.returncode}")
        if keep:
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(tmp, keep)
        check(denpex, ranks, "per-rank files", rank, entry, env)
        check(denpex, stream, "interleaved stream", rank, entry, env)
    print("PASS")


if __name__ == "__main__":
    main()
