#!/usr/bin/env python3
"""Generates N job directories for `denpex triage` from the real logs in tests/fixtures/logs and
examples/: each job is a copy of one real failure (or healthy run), moved to another host name,
with PAD lines of ordinary training output before it (a real job logs for hours before it fails).
A few hosts are made bad on purpose: half the Xid jobs land on node-17, so triage must name it.

Usage: gen_jobs.py OUT_DIR [--jobs 1000] [--pad 2000] [--seed 1]
"""
import argparse
import pathlib
import random
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests/fixtures/logs"


def sources():
    """(path, is hardware) of every fixture job: directories are multi-file jobs, files one-file jobs."""
    out = [(LOGS / "xid79", True), (LOGS / "xid79-busid", True), (ROOT / "examples/oom-cascade", False)]
    out += [(d, False) for d in sorted((LOGS / "multirank").iterdir()) if d.is_dir()]
    out += [(f, False) for f in sorted((LOGS / "spawn").glob("*.log"))]
    out += [(f, False) for f in sorted(LOGS.glob("*.log"))]
    return out


def padding(lines):
    healthy = (LOGS / "healthy.log").read_text().splitlines()[1:]
    return "".join(f"{healthy[i % len(healthy)]} step={i}\n" for i in range(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--jobs", type=int, default=1000)
    ap.add_argument("--pad", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    pad = padding(args.pad)
    src = sources()
    total = 0
    for i in range(args.jobs):
        path, hardware = rng.choice(src)
        node = "node-17" if hardware and rng.random() < 0.5 else f"node-{rng.randrange(64):02d}"
        job = args.out / f"job-{i:04d}"
        files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix != ".md") if path.is_dir() else [path]
        for n, f in enumerate(files):
            rel = f.relative_to(path) if path.is_dir() else pathlib.Path("train.log")
            text = f.read_text(errors="replace").replace("node-02", node)
            # Kernel logs are the node's, not the job's: they get no training output before them.
            if n == 0 and not f.name.startswith("dmesg"):
                text = pad + text
            target = job / str(rel).replace("node-02", node)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            total += len(text)
    print(f"{args.jobs} jobs, {total / 1e6:.1f} MB, in {args.out}")


if __name__ == "__main__":
    main()
