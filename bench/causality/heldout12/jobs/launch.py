#!/usr/bin/env python3
"""minilaunch: a tiny local multi-process launcher (torchrun is broken on this box).

Spawns N copies of a script with MASTER_ADDR/MASTER_PORT/WORLD_SIZE/RANK/LOCAL_RANK
set, forwards their output (optionally with a prefix per line), watches them and
optionally tears the group down when one worker fails.
"""
import argparse
import os
import signal
import subprocess
import sys
import threading
import time

out_lock = threading.Lock()


def ts():
    return time.strftime("%Y-%m-%d %H:%M:%S")


def prefix_for(style, rank, local_rank, host, jobid):
    if style == "none":
        return ""
    if style == "rank":
        return f"[rank{rank}]:"
    if style == "default":
        return f"[default{rank}]:"
    if style == "mpi":
        return f"[{jobid},{rank}]<STREAM>:"
    if style == "k8s":
        name = "master-0" if rank == 0 else f"worker-{rank - 1}"
        return f"[pod/{jobid}-{name}/pytorch] "
    if style == "host":
        return f"{host}: "
    if style == "compose":
        return f"trainer-{rank + 1}  | "
    raise ValueError(style)


def pump(stream, dest, prefix, streamname, log_fh):
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace")
        if not line.endswith("\n"):
            line += "\n"
        p = prefix.replace("STREAM", streamname)
        with out_lock:
            if log_fh is not None:
                log_fh.write(line)
                log_fh.flush()
            if dest is not None:
                dest.write(p + line)
                dest.flush()
    stream.close()


def signame(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nproc", type=int, required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--prefix", default="none")
    ap.add_argument("--hosts", default="", help="e.g. node-a:2,node-b:2 (only for naming)")
    ap.add_argument("--jobid", default="1")
    ap.add_argument("--on-failure", choices=["kill", "wait"], default="kill")
    ap.add_argument("--grace", type=float, default=5.0,
                    help="seconds to wait after first failure before SIGTERM")
    ap.add_argument("--term-timeout", type=float, default=5.0,
                    help="seconds after SIGTERM before SIGKILL")
    ap.add_argument("--summary", choices=["simple", "table", "none"], default="simple")
    ap.add_argument("--log-dir", default="")
    ap.add_argument("--no-console", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="no launcher chatter except summary")
    ap.add_argument("--interrupt-after", type=float, default=0.0,
                    help="send SIGINT to every worker after this many seconds (Ctrl-C)")
    ap.add_argument("--unbuffered", action="store_true")
    ap.add_argument("--merge-stderr", action="store_true")
    ap.add_argument("--stagger", type=float, default=0.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd

    hosts = []
    if a.hosts:
        for item in a.hosts.split(","):
            h, n = item.split(":")
            hosts += [(h, i, int(n)) for i in range(int(n))]
    else:
        hosts = [(os.uname().nodename, i, a.nproc) for i in range(a.nproc)]

    def say(msg):
        if a.quiet:
            return
        with out_lock:
            sys.stderr.write(f"minilaunch {ts()} {msg}\n")
            sys.stderr.flush()

    say(f"starting {a.nproc} workers: {' '.join(cmd)}")
    say(f"master_addr=127.0.0.1 master_port={a.port} world_size={a.nproc}")
    procs = []
    threads = []
    for rank in range(a.nproc):
        host, local_rank, local_world = hosts[rank]
        env = dict(os.environ)
        env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(a.port),
                   WORLD_SIZE=str(a.nproc), RANK=str(rank), LOCAL_RANK=str(local_rank),
                   LOCAL_WORLD_SIZE=str(local_world), NODE_NAME=host,
                   GROUP_RANK=str(rank // max(local_world, 1)))
        if a.unbuffered:
            env["PYTHONUNBUFFERED"] = "1"
        log_fh = None
        if a.log_dir:
            os.makedirs(a.log_dir, exist_ok=True)
            log_fh = open(os.path.join(a.log_dir, f"rank{rank}.log"), "w")
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT if a.merge_stderr else subprocess.PIPE)
        procs.append(p)
        pre = prefix_for(a.prefix, rank, local_rank, host, a.jobid)
        dest = None if a.no_console else sys.stdout
        t1 = threading.Thread(target=pump, args=(p.stdout, dest, pre, "stdout", log_fh), daemon=True)
        t1.start()
        threads.append(t1)
        if not a.merge_stderr:
            t2 = threading.Thread(target=pump, args=(p.stderr, dest if dest is None else sys.stdout,
                                                     pre, "stderr", log_fh), daemon=True)
            t2.start()
            threads.append(t2)
        say(f"worker {rank} (local_rank {local_rank}) started with pid {p.pid}")
        if a.stagger:
            time.sleep(a.stagger)

    start = time.time()
    first_fail = None
    first_fail_time = None
    termed = False
    interrupted = False
    exit_reported = set()
    try:
        while True:
            alive = 0
            for rank, p in enumerate(procs):
                rc = p.poll()
                if rc is None:
                    alive += 1
                    continue
                if rank in exit_reported:
                    continue
                exit_reported.add(rank)
                if rc == 0:
                    say(f"worker {rank} (pid {p.pid}) finished successfully")
                elif rc < 0:
                    say(f"worker {rank} (pid {p.pid}) was killed by {signame(-rc)}")
                else:
                    say(f"worker {rank} (pid {p.pid}) exited with code {rc}")
                if rc != 0 and first_fail is None and not termed and not interrupted:
                    first_fail = rank
                    first_fail_time = time.time()
                    if a.on_failure == "kill":
                        say(f"worker {rank} failed; stopping the remaining workers in {a.grace:.0f}s")
            if alive == 0:
                break
            if (a.interrupt_after and not interrupted and time.time() - start > a.interrupt_after):
                interrupted = True
                sys.stderr.write("^C")
                sys.stderr.flush()
                say("received SIGINT, forwarding to workers")
                for p in procs:
                    if p.poll() is None:
                        p.send_signal(signal.SIGINT)
                first_fail_time = time.time()
            if (first_fail is not None and a.on_failure == "kill" and not termed
                    and time.time() - first_fail_time > a.grace):
                termed = True
                for rank, p in enumerate(procs):
                    if p.poll() is None:
                        say(f"sending SIGTERM to worker {rank} (pid {p.pid})")
                        p.send_signal(signal.SIGTERM)
                term_time = time.time()
            if termed and time.time() - term_time > a.term_timeout:
                for rank, p in enumerate(procs):
                    if p.poll() is None:
                        say(f"worker {rank} (pid {p.pid}) did not exit after SIGTERM, sending SIGKILL")
                        p.kill()
                term_time = float("inf")
            time.sleep(0.05)
    except KeyboardInterrupt:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in procs:
            p.wait()
    for t in threads:
        t.join(timeout=2)

    codes = [p.returncode for p in procs]
    if a.summary == "simple":
        with out_lock:
            for rank, rc in enumerate(codes):
                if rc == 0:
                    s = "ok"
                elif rc < 0:
                    s = f"killed by {signame(-rc)}"
                else:
                    s = f"exit code {rc}"
                sys.stderr.write(f"minilaunch {ts()} summary: worker {rank}: {s}\n")
            sys.stderr.flush()
    elif a.summary == "table":
        with out_lock:
            bar = "=" * 60
            sys.stderr.write(bar + "\n")
            sys.stderr.write(f"{' '.join(cmd)} FAILED\n" if any(codes) else f"{' '.join(cmd)} OK\n")
            sys.stderr.write("-" * 60 + "\n")
            for rank, rc in enumerate(codes):
                host, lr, _ = hosts[rank]
                st = "ok" if rc == 0 else (signame(-rc) if rc < 0 else f"exitcode {rc}")
                sys.stderr.write(f"  rank {rank:<3} host {host:<8} local_rank {lr}  pid {procs[rank].pid:<7} {st}\n")
            sys.stderr.write(bar + "\n")
            sys.stderr.flush()
    bad = [c for c in codes if c != 0]
    sys.exit(0 if not bad else (bad[0] if bad[0] > 0 else 128 - bad[0]))


if __name__ == "__main__":
    main()
