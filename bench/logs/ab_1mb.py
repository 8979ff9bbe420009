"""Interleaved A/B of denpex builds on what the editor command and `denpex run` pay: a whole process
from start to JSON on a 6-byte input and on 1 MB selections (the 1,000,000 bytes before the failure
of a clean and of a 5%-dense generated log, plus the failing traceback, as measure.py cuts them).
Each round runs every build on every input, so load from other processes hits all alike.

usage: ab_1mb.py ROUNDS DENPEX...      (work files in $BENCH_DIR, default /tmp/denpex-bench)"""
import os
import statistics
import subprocess
import sys
import time

rounds, builds = int(sys.argv[1]), sys.argv[2:]
work = os.environ.get("BENCH_DIR", "/tmp/denpex-bench")
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(work, exist_ok=True)


def selection(density):
    log = f"{work}/train-16MiB-d{density:g}.log"
    if not os.path.exists(log):
        subprocess.run([sys.executable, f"{here}/gen.py", log, "16", "64", str(density)], check=True)
    data = open(log, "rb").read()
    fail = data.find(b"[rank37]: Traceback")
    head = data[max(0, fail - 1_000_000):fail]
    path = f"{work}/1mb-d{density:g}.log"
    with open(path, "wb") as f:
        f.write(head[head.find(b"\n") + 1:] + b"".join(l + b"\n" for l in data[fail:].split(b"\n")[:4]))
    return path


tiny = f"{work}/tiny.log"
open(tiny, "w").write("hello\n")
inputs = {"6 bytes": tiny, "1 MB clean": selection(0), "1 MB at 5%": selection(0.05)}
times = {(b, name): [] for b in builds for name in inputs}
print(f"load average before: {open('/proc/loadavg').read().split()[0]}; {rounds} rounds")
for _ in range(rounds):
    for name, path in inputs.items():
        for b in builds:
            t = time.perf_counter()
            subprocess.run([b, "diagnose", "--format", "json", path], stdout=subprocess.DEVNULL)
            times[(b, name)].append(time.perf_counter() - t)
for (b, name), v in times.items():
    print(f"{b}: {name}: median {statistics.median(v) * 1000:.1f} ms (min {min(v) * 1000:.1f})")
print(f"load average after: {open('/proc/loadavg').read().split()[0]}")
