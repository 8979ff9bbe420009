"""Validates `denpex check --output-format sarif` with Microsoft's SARIF Multitool (the reference
validator: JSON schema 2.1.0 plus the SARIF rules). Exit 77 (skip) when the tool is not fetched;
`scripts/fetch-deps.sh --test-tools` fetches it. Usage: validate_sarif.py DENPEX FIXTURE_DIR TOOL_DIR"""
import json
import os
import stat
import subprocess
import sys
import tempfile

denpex, fixtures, tool_dir = sys.argv[1:4]
tool = os.path.join(tool_dir, "Sarif.Multitool")
if not os.path.isfile(tool):
    print(f"SKIP: {tool} not found (run scripts/fetch-deps.sh --test-tools)")
    sys.exit(77)
os.chmod(tool, os.stat(tool).st_mode | stat.S_IXUSR)

with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "check.sarif")
    run = subprocess.run([denpex, "check", "--no-config", "--output-format", "sarif", fixtures],
                         capture_output=True, timeout=120)
    if run.returncode != 1:
        print(f"FAIL: expected findings (exit 1) on the fixtures, got exit {run.returncode}: {run.stderr.decode()}")
        sys.exit(1)
    open(log, "wb").write(run.stdout)
    results = json.loads(run.stdout)["runs"][0]["results"]
    if not results:
        print("FAIL: the SARIF log has no results to validate")
        sys.exit(1)
    report = os.path.join(tmp, "validation.sarif")
    # Self-contained .NET: without ICU it needs invariant globalization.
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1", DOTNET_CLI_TELEMETRY_OPTOUT="1")
    v = subprocess.run([tool, "validate", log, "--output", report], capture_output=True, timeout=300, env=env)
    if v.returncode != 0 or not os.path.isfile(report):
        print(f"FAIL: the validator did not run (exit {v.returncode}): {v.stdout.decode()[-2000:]} {v.stderr.decode()[-2000:]}")
        sys.exit(1)
    problems = [r for run_ in json.load(open(report))["runs"] for r in run_.get("results", [])
                if r.get("level", "warning") in ("error", "warning")]
    for p in problems:
        print(p.get("level"), p.get("ruleId"), json.dumps(p.get("message")))
    if problems:
        print(f"FAIL: {len(problems)} validation problem(s) in {len(results)} results")
        sys.exit(1)
    print(f"PASS: {len(results)} results, valid SARIF 2.1.0")
