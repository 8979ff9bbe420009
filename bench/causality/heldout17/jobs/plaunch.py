#!/usr/bin/env python3
"""plaunch: a small subprocess launcher, the kind teams write instead of torchrun.

Starts N workers with the torch.distributed env variables, prefixes every output line with
a format string ({job}, {rank}, {world}, {pid}), and when a worker fails waits --grace
seconds and then SIGTERMs the rest.
"""
import argparse
import os
import signal
import subprocess
import sys
import threading
import time

lock = threading.Lock()


def now():
    t = time.time()
    return time.strftime("%H:%M:%S", time.localtime(t)) + f",{int(t * 1000) % 1000:03d}"


def say(msg):
    with lock:
        sys.stdout.write(f"plaunch {now()} | {msg}\n")
        sys.stdout.flush()


def pump(stream, prefix):
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        with lock:
            sys.stdout.write(prefix + line + "\n")
            sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nproc", type=int, required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--job", default="train")
    ap.add_argument("--prefix", default="{job}-r{rank} | ")
    ap.add_argument("--grace", type=float, default=3.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    say(f"job {a.job}: {a.nproc} workers, rendezvous 127.0.0.1:{a.port}")
    procs, threads = [], []
    for r in range(a.nproc):
        env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(a.port),
                   WORLD_SIZE=str(a.nproc), RANK=str(r), LOCAL_RANK=str(r), PYTHONUNBUFFERED="1")
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        procs.append(p)
        pre = a.prefix.format(job=a.job, rank=r, world=a.nproc, pid=p.pid)
        t = threading.Thread(target=pump, args=(p.stdout, pre), daemon=True)
        t.start()
        threads.append(t)
    say("pids " + " ".join(str(p.pid) for p in procs))
    failed_at = None
    done = set()
    termed = False
    while len(done) < len(procs):
        for r, p in enumerate(procs):
            if r in done or p.poll() is None:
                continue
            done.add(r)
            rc = p.returncode
            if rc != 0 and failed_at is None and not termed:
                failed_at = time.time()
                say(f"pid {p.pid} exited with {rc}; terminating the job in {a.grace:g}s")
        if failed_at and not termed and time.time() - failed_at > a.grace:
            termed = True
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            say("sent SIGTERM to remaining workers")
        time.sleep(0.05)
    for t in threads:
        t.join(timeout=2)
    codes = [p.returncode for p in procs]
    say("exit codes: " + ",".join(str(c) for c in codes))
    sys.exit(0 if not any(codes) else 1)


if __name__ == "__main__":
    main()
