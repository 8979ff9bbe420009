#!/usr/bin/env python3
"""Score denpex's initiating-rank attribution against the held-out set.

For every line of heldout/manifest.tsv this runs

    DENPEX diagnose --format json heldout/FILE

takes the top diagnosis (the first entry of "diagnoses") and compares its
`initiating_rank` / `initiating_node` with the truth column:

  * an integer truth is correct when initiating_rank equals it;
  * `node:NAME` is correct when initiating_node equals NAME (case-insensitive);
  * `none` (a healthy, interrupted or cancelled run) is correct when the top
    diagnosis names neither a rank nor a node, or when there is no diagnosis.

Usage: score.py [PATH_TO_DENPEX]     (default: build/denpex, relative to the repo root)
       score.py --manifest OTHER.tsv [PATH_TO_DENPEX]
Exit status is 0 whenever scoring ran, 2 when denpex could not be run at all.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#") or line.startswith("file\t"):
                continue
            cols = line.split("\t")
            if len(cols) < 2:
                continue
            rows.append({
                "file": cols[0],
                "truth": cols[1].strip(),
                "hint": cols[2] if len(cols) > 2 else "",
                "url": cols[3] if len(cols) > 3 else "",
            })
    return rows


def run_denpex(denpex, path):
    """Returns (got, entry, error).

    The case is diagnosed under a neutral name (`paste.log`): the case files are named after their
    truth (`...-local-rank7.log`), and denpex reads ranks from file names (`rank3.log`), so the
    real name would hand it the answer. A case that is a directory (one file per rank, as the job
    wrote them) is diagnosed as a directory named `run`, its files keeping their own names."""
    import shutil
    import tempfile
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if os.path.isdir(path):
                neutral = os.path.join(tmp, "run")
                shutil.copytree(path, neutral)
            else:
                neutral = os.path.join(tmp, "paste.log")
                shutil.copyfile(path, neutral)
            proc = subprocess.run(
                [denpex, "diagnose", "--format", "json", neutral],
                capture_output=True, text=True, timeout=120,
            )
    except FileNotFoundError:
        return None, None, "denpex not found"
    except subprocess.TimeoutExpired:
        return "ERR", "-", "timeout"
    # Exit 1 means "a failure was diagnosed", 0 "none"; 2 is a usage/I/O error.
    if proc.returncode not in (0, 1):
        return "ERR", "-", "exit %d: %s" % (proc.returncode, proc.stderr.strip()[:200])
    try:
        doc = json.loads(proc.stdout)
    except ValueError as e:
        return "ERR", "-", "bad json: %s" % e
    diags = doc.get("diagnoses") or []
    if not diags:
        return "none", "-", None
    top = diags[0]
    entry = top.get("entry") or "-"
    rank = top.get("initiating_rank")
    node = top.get("initiating_node")
    if rank is not None:
        return str(rank), entry, None
    if node:
        return "node:%s" % node, entry, None
    return "none", entry, None


def is_ok(truth, got):
    if got in (None, "ERR"):
        return False
    t = truth.strip()
    if t == "none":
        return got == "none"
    if t.startswith("node:"):
        return got.lower() == t.lower()
    try:
        return got == str(int(t))
    except ValueError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("denpex", nargs="?", default="build/denpex")
    ap.add_argument("--manifest", default=os.path.join(HERE, "heldout", "manifest.tsv"))
    args = ap.parse_args()

    denpex = args.denpex
    if not os.path.isabs(denpex) and not os.path.exists(denpex):
        denpex = os.path.join(REPO, denpex)
    if not os.path.exists(denpex):
        print("score.py: %s does not exist (build denpex first)" % args.denpex, file=sys.stderr)
        return 2

    base = os.path.dirname(os.path.abspath(args.manifest))
    rows = read_manifest(args.manifest)

    results = []
    for r in rows:
        got, entry, err = run_denpex(denpex, os.path.join(base, r["file"]))
        if got is None:
            print("score.py: cannot run %s: %s" % (denpex, err), file=sys.stderr)
            return 2
        results.append((r, got, entry, err, is_ok(r["truth"], got)))

    wf = max([len("file")] + [len(r["file"]) for r, *_ in results])
    wt = max([len("truth")] + [len(r["truth"]) for r, *_ in results])
    wg = max([len("got")] + [len(g) for _, g, *_ in results])
    we = max([len("entry")] + [len(e) for _, _, e, *_ in results])
    print("%-*s  %-*s  %-*s  %-*s  %s" % (wf, "file", wt, "truth", wg, "got", we, "entry", "ok"))
    print("-" * (wf + wt + wg + we + 12))
    for r, got, entry, err, ok in results:
        line = "%-*s  %-*s  %-*s  %-*s  %s" % (
            wf, r["file"], wt, r["truth"], wg, got, we, entry, "yes" if ok else "NO")
        if err:
            line += "  (%s)" % err
        print(line)

    def is_int(t):
        try:
            int(t)
            return True
        except ValueError:
            return False

    ints = [x for x in results if is_int(x[0]["truth"])]
    nodes = [x for x in results if x[0]["truth"].startswith("node:")]
    nones = [x for x in results if x[0]["truth"] == "none"]
    print()
    print("integer-rank cases: %d/%d correct (%.1f%%)" % (
        sum(x[4] for x in ints), len(ints), 100.0 * sum(x[4] for x in ints) / max(1, len(ints))))
    print("node cases:         %d/%d correct" % (sum(x[4] for x in nodes), len(nodes)))
    print("none cases:         %d/%d correct" % (sum(x[4] for x in nones), len(nones)))
    print("overall:            %d/%d correct (%.1f%%)" % (
        sum(x[4] for x in results), len(results),
        100.0 * sum(x[4] for x in results) / max(1, len(results))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
