#!/usr/bin/env python3
"""memguard: a small earlyoom-style user-space OOM guard.  Every 0.2 s it looks at the
descendants of ROOT_PID (the job) and SIGKILLs any whose RSS passes LIMIT_MB
(the way the kernel OOM killer or earlyoom would on a box without swap).  It writes its
own log (argv[3]); nothing goes to the job's console."""
import os
import signal
import sys
import time

root, limit_mb, logpath = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
me = os.getpid()


def ppid(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("PPid:"):
            return int(line.split()[1])
    return 0


def under_root(pid):
    while pid > 1:
        if pid == root:
            return True
        pid = ppid(pid)
    return False


with open(logpath, "a") as logf:
    while True:
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == me:
                continue
            try:
                if not under_root(int(pid)):
                    continue
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
                rss = 0
                for line in open(f"/proc/{pid}/status"):
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1]) // 1024
                if rss > limit_mb:
                    os.kill(int(pid), signal.SIGKILL)
                    logf.write(f"{time.strftime('%H:%M:%S')} memguard: killed pid {pid} ({cmd.strip()}) rss {rss} MiB > {limit_mb} MiB\n")
                    logf.flush()
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                pass
        time.sleep(0.2)
