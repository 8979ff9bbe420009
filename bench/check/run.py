#!/usr/bin/env python3
"""Side-by-side timing of `denpex check` against ast-grep (equivalent rules, ast-grep/rules/),
flake8, and denpex's own parse-only baseline, on the Python standard library and a generated
1M-line training corpus. Prints a Markdown table of median wall times and ratios.

Usage: bench/check/run.py [--runs N] [--denpex build-py/denpex] [--no-flake8] [--only real|stdlib|generated]
flake8 runs as issue 9 states its peer: `flake8 --select=F --jobs <cores>` (pyflakes checks only).
Setup (once): npm install --prefix bench/out @ast-grep/cli; apt-get install flake8;
              python3 bench/check/gen_corpus.py bench/out/corpus
"""
import argparse
import os
import resource
import statistics
import subprocess
import sysconfig
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def timed(cmd, runs, cwd=None):
    """Median wall time and median CPU time (user+sys of the children). On a shared machine the
    CPU time is the steadier measure of work done."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if r.returncode not in (0, 1):
            raise SystemExit("%s failed with %d" % (" ".join(cmd), r.returncode))
    return statistics.median(walls), statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--flake8-runs", type=int, default=1)
    ap.add_argument("--denpex", default=os.path.join(ROOT, "build-py", "denpex"))
    ap.add_argument("--no-flake8", action="store_true", help="skip flake8 (minutes per run)")
    ap.add_argument("--only", choices=["real", "stdlib", "generated"], help="time one tree only")
    args = ap.parse_args()
    sg = os.path.join(ROOT, "bench", "out", "node_modules", ".bin", "ast-grep")
    corpus = os.path.join(ROOT, "bench", "out", "corpus")
    sets = []
    if args.only in (None, "stdlib"):
        sets.append(("stdlib", sysconfig.get_paths()["stdlib"]))
    if args.only in (None, "generated"):
        if not os.path.isdir(corpus):
            subprocess.run(["python3", os.path.join(HERE, "gen_corpus.py"), corpus], check=True)
        sets.append(("corpus (1M lines)", corpus))
    # The judged corpus of real training repositories (bench/corpus/build.sh), when built.
    real = os.path.join(ROOT, "bench", "corpus", "repos")
    if args.only in (None, "real") and os.path.isdir(real):
        sets.append(("real repositories (bench/corpus)", real))
    cores = os.cpu_count()
    print("Machine: %d cores, load average %.2f at start; median of %d runs (flake8: %d); all tools use all cores.\n" %
          (cores, os.getloadavg()[0], args.runs, args.flake8_runs))
    print("| corpus | measure | denpex check | parse only | ast-grep scan | flake8 | check / parse | ast-grep / denpex | flake8 / denpex |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, path in sets:
        dp = timed([args.denpex, "check", "--no-config", "--output-format", "json", path], args.runs)
        po = timed([args.denpex, "check", "--no-config", "--parse-only", path], args.runs)
        ag = timed([sg, "scan", "-c", os.path.join(HERE, "ast-grep", "sgconfig.yml"), "--json", path], args.runs)
        fl = (float("nan"), float("nan")) if args.no_flake8 else timed(["flake8", "--select=F", "--jobs", str(cores), path], args.flake8_runs)
        for k, label in ((0, "wall"), (1, "CPU")):
            print("| %s | %s | %.2f s | %.2f s | %.2f s | %.2f s | %.2fx | %.1fx | %.1fx |" %
                  (name, label, dp[k], po[k], ag[k], fl[k], dp[k] / po[k], ag[k] / dp[k], fl[k] / dp[k]), flush=True)
    print("\nLoad average at the end: %.2f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
