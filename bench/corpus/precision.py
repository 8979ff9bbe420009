#!/usr/bin/env python3
"""Per-rule precision of `denpex check` on the judged corpus.

Runs DENPEX over bench/corpus/repos with every rule selected (opt-in ones included), joins each
finding with its verdict in judgments.tsv (location, code, verdict, reason; location is
"owner+name/path:line") and prints findings, true/false/debatable and precision =
true / judged (debatable counts against the rule). Unjudged findings are listed and make the
script exit 1: judge them before trusting the numbers.

usage: precision.py DENPEX [--markdown]
"""
import collections, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
denpex = os.path.abspath(sys.argv[1])
rules = json.loads(subprocess.run([denpex, "check", "--list-rules", "--output-format", "json"],
                                  capture_output=True, text=True).stdout)
select = "ALL," + ",".join(r["code"] for r in rules)
out = subprocess.run([denpex, "check", "--no-config", "--select", select, "--output-format", "json", "."],
                     cwd=os.path.join(here, "repos"), capture_output=True, text=True)
findings = json.loads(out.stdout or "[]")

verdicts = {}
for line in open(os.path.join(here, "judgments.tsv")):
    if line.startswith("#") or not line.strip():
        continue
    loc, code, verdict, reason = line.rstrip("\n").split("\t")
    verdicts[(loc, code)] = verdict

stats = collections.defaultdict(collections.Counter)
unjudged = []
for f in findings:
    path = f["file"][2:] if f["file"].startswith("./") else f["file"]
    key = (f"{path}:{f['line']}", f["code"])
    v = verdicts.get(key)
    if v is None:
        unjudged.append(key)
        continue
    stats[f["code"]][v] += 1

print("| code | findings | true | false | debatable | precision |")
print("|---|---|---|---|---|---|")
for r in rules:
    s = stats.get(r["code"], collections.Counter())
    n = sum(s.values())
    p = f"{s['true'] / n:.2f}" if n else "-"
    print(f"| {r['code']} | {n} | {s['true']} | {s['false']} | {s['debatable']} | {p} |")
for k in unjudged:
    print("unjudged:", *k, file=sys.stderr)
sys.exit(1 if unjudged else 0)
