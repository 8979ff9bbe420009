#!/usr/bin/env python3
"""Node memory guard (earlyoom-like): SIGKILLs any process of the watched session whose
resident set exceeds the per-process limit.  Logs to stdout only."""
import os
import signal
import sys
import time

limit_mib, sid = int(sys.argv[1]), int(sys.argv[2])
print(f"{time.strftime('%H:%M:%S')} memwatch: limit {limit_mib} MiB per process, session {sid}", flush=True)
while True:
    alive = False
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            if os.getsid(int(p)) != sid:
                continue
            alive = True
            with open(f"/proc/{p}/status") as f:
                st = dict(l.split(":", 1) for l in f if ":" in l)
            rss = int(st["VmRSS"].split()[0]) // 1024
        except (OSError, KeyError, ValueError):
            continue
        if rss > limit_mib:
            os.kill(int(p), signal.SIGKILL)
            print(f"{time.strftime('%H:%M:%S')} memwatch: pid {p} rss {rss} MiB > {limit_mib} MiB, sent SIGKILL", flush=True)
    if not alive:
        break
    time.sleep(0.5)
