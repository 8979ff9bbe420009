"""Runs one real PyTorch failure and checks what denpex says about its real output, both with
`denpex diagnose` on the saved output and live with `denpex run`. Exit 77: torch unavailable."""
import json
import os
import subprocess
import sys
import tempfile

PY = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
JOBS = os.path.join(HERE, "jobs")

# scenario -> (command, expected entry or None, expected rank or None, final exception type)
SCENARIOS = {
    "gloo_shape_mismatch": ("gloo_launch.py", "matmul-shape-mismatch", 2, None),
    "rank_sigkill": ("spawn_sigkill.py", "mp-spawn-process-killed", None, None),
    "dataloader_worker_killed": ("dataloader_killed.py", "dataloader-worker-killed", None, None),
    "state_dict_keys": ("state_dict_keys.py", "state-dict-missing-unexpected-keys", None, None),
    "autograd_inplace": ("autograd_inplace.py", "autograd-inplace-modified", None, None),
    "backward_twice": ("backward_twice.py", "autograd-backward-twice", None, None),
    # the worker the others call exits; their agents name it in every lost-connection warning
    "rpc_lost_peer": ("rpc_lost_peer.py", "rpc-agent-lost-peer", 0, None),
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    denpex, name = sys.argv[1], sys.argv[2]
    if subprocess.run([PY, "-c", "import torch"], capture_output=True, timeout=120).returncode != 0:
        print("SKIP: /usr/bin/python3 cannot import torch")
        sys.exit(77)
    script, entry, rank, final_type = SCENARIOS[name]
    collateral = False
    env = dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [PY, os.path.join(JOBS, script)]
        target = os.path.join(tmp, "output.log")
        if name == "gloo_shape_mismatch":
            os.makedirs(os.path.join(tmp, "ranks"))
            cmd.append(os.path.join(tmp, "ranks"))
            target = os.path.join(tmp, "ranks")
        real = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180, env=env)
        if real.returncode == 0:
            fail("the job did not fail")
        if name != "gloo_shape_mismatch":
            open(target, "wb").write(real.stdout)
        print(real.stdout.decode(errors="replace")[-3000:])

        # 1. Saved output.
        d = subprocess.run([denpex, "diagnose", "--format", "json", target], capture_output=True, timeout=60, env=env)
        report = json.loads(d.stdout)
        diags = report["diagnoses"]
        if entry is None:
            if d.returncode != 0 or diags:
                fail(f"expected no diagnosis (nothing known matches), got {[x['entry'] for x in diags]}")
            fe = report["final_exception"]
            if not fe or fe["type"].split(".")[-1] != final_type:
                fail(f"expected final exception {final_type}, got {fe}")
        else:
            if d.returncode != 1 or not diags:
                fail(f"expected a diagnosis {entry}, got none: {d.stdout.decode()[:2000]}")
            top = diags[0]
            collateral = top["role"] == "collateral"
            if top["entry"] != entry:
                fail(f"expected {entry}, got {top['entry']} ({[h['entry'] for h in top['hypotheses']]})")
            if rank is not None and top["initiating_rank"] != rank:
                fail(f"expected initiating rank {rank}, got {top['initiating_rank']}")
            if name == "gloo_shape_mismatch":
                coll = {(c["rank"], c["entry"]) for c in top["collateral"]}
                peers = {r for r, e in coll if e == "gloo-connection-closed-by-peer"}
                if not peers or 2 in peers:
                    fail(f"expected other ranks' 'Connection closed by peer' as collateral, got {sorted(coll)}")

        # 2. Live, through `denpex run`.
        run_cmd = [denpex, "run", "--"] + cmd[:2]
        if name == "gloo_shape_mismatch":
            run_cmd.append(os.path.join(tmp, "ranks"))
        live = subprocess.run(run_cmd, capture_output=True, timeout=180, env=env)
        err = live.stderr.decode(errors="replace")
        if live.returncode != real.returncode:
            fail(f"denpex run exit {live.returncode}, the job's own was {real.returncode}")
        if "the command failed with exit code" not in err:
            fail("denpex run printed no report for the failed command")
        if entry is not None:
            # A live line announces an initiating fault only: a collateral entry gets none.
            if not collateral and f"({entry}," not in err.split("the command failed")[0]:
                fail(f"no live line naming {entry}:\n{err[-3000:]}")
            if "Diagnosis: " not in err or f"denpex explain {entry}" not in err:
                fail(f"the final report does not name {entry}:\n{err[-3000:]}")
            if rank is not None and f"Initiating fault: rank {rank}" not in err:
                fail(f"the live report does not name rank {rank}:\n{err[-3000:]}")
    print("PASS")


if __name__ == "__main__":
    main()
