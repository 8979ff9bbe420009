#!/usr/bin/env python3
"""Quick pre-check for entry authors before `denpex signatures test` is at hand.

Checks YAML syntax, required keys and that each `match` example hits a fingerprint of its entry
(Python's `re` stands in for RE2 here; `denpex signatures test` is the real judge)."""
import re
import sys
import pathlib
import yaml

REQUIRED = ["id", "title", "category", "severity", "role", "fingerprints", "summary",
            "mechanism", "fix", "verify", "examples"]
failed = False
for path in sorted(p for arg in sys.argv[1:] for p in pathlib.Path(arg).rglob("*.yaml")):
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        print(f"{path}: YAML error: {e}")
        failed = True
        continue
    missing = [k for k in REQUIRED if k not in doc]
    if missing:
        print(f"{path}: missing {missing}")
        failed = True
        continue
    if doc["id"] != path.stem:
        print(f"{path}: id {doc['id']!r} differs from the file name")
        failed = True
    pats = [re.compile(f["pattern"]) for f in doc["fingerprints"]]
    for kind, want in (("match", True), ("no_match", False)):
        for i, ex in enumerate(doc["examples"].get(kind, [])):
            hit = any(p.search(line) for p in pats for line in ex.splitlines())
            if hit != want:
                print(f"{path}: examples.{kind}[{i}] {'did not match' if want else 'matched'}")
                failed = True
sys.exit(1 if failed else 0)
