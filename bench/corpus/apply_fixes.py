#!/usr/bin/env python3
"""Fix-application test on the real corpus (issue 9, "fixes that never break code").

Copies bench/corpus/repos to bench/corpus/fixed (git-ignored), runs `denpex check --fix`
(safe fixes; with --unsafe also the unsafe ones) on the copy, then checks that
  - every file that byte-compiled before still byte-compiles (python3 -m py_compile),
  - every finding that offered a fix is gone (same code no longer reported at more places),
  - a second `--fix` run changes nothing (idempotent),
and writes the unified diff of every changed file to fixed.diff for reading.

usage: apply_fixes.py DENPEX [--unsafe]
"""
import collections, difflib, json, os, py_compile, shutil, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
denpex = os.path.abspath(sys.argv[1])
unsafe = "--unsafe" in sys.argv
src, dst = os.path.join(here, "repos"), os.path.join(here, "fixed")


rules = json.loads(subprocess.run([denpex, "check", "--list-rules", "--output-format", "json"],
                                  capture_output=True, text=True).stdout)
# Every rule, the opt-in ones included: their fixes must not break code either.
select = ["--select", "ALL," + ",".join(r["code"] for r in rules)]


def check(root):
    out = subprocess.run([denpex, "check", "--no-config", *select, "--output-format", "json", "."], cwd=root,
                         capture_output=True, text=True)
    return json.loads(out.stdout or "[]")


def compiles(path):
    try:
        py_compile.compile(path, cfile=os.devnull, doraise=True)
        return True
    except Exception:
        return False


shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
before = check(dst)
fixable = [f for f in before if f["fix"] and (unsafe or f["fix"]["safe"])]
flags = ["--fix"] + (["--unsafe-fixes"] if unsafe else [])
subprocess.run([denpex, "check", "--no-config", *select, *flags, "."], cwd=dst, capture_output=True)
after = check(dst)

changed = sorted({f["file"] for f in fixable})
broken, diffs = [], []
for rel in changed:
    a, b = os.path.join(src, rel), os.path.join(dst, rel)
    if compiles(a) and not compiles(b):
        broken.append(rel)
    diffs += difflib.unified_diff(open(a).readlines(), open(b).readlines(), "a/" + rel, "b/" + rel)
with open(os.path.join(here, "fixed.diff" if unsafe else "fixed-safe.diff"), "w") as out:
    out.writelines(diffs)

count = lambda fs: collections.Counter((f["file"], f["code"]) for f in fs)
left = [k for k, n in count(fixable).items() if count([f for f in after if f["fix"]]).get(k, 0) >= count(before).get(k, 0)]
second = subprocess.run([denpex, "check", "--no-config", *select, "--diff", *flags[1:], "."], cwd=dst, capture_output=True, text=True)
idempotent = second.stdout.strip() == ""

per_code = collections.Counter(f["code"] for f in fixable)
print(f"fixes offered ({'safe+unsafe' if unsafe else 'safe'}): {len(fixable)} in {len(changed)} files: "
      + ", ".join(f"{c} {n}" for c, n in sorted(per_code.items())))
print(f"findings left with a fix after --fix: {len(left)}; byte-compile broken: {len(broken)}; idempotent: {idempotent}")
for b in broken:
    print("  broken:", b)
sys.exit(1 if broken or left or not idempotent else 0)
