#!/usr/bin/python3
"""tiny multi-process launcher: starts N ranks, tags each output line, prints a summary."""
import os, sys, subprocess, threading, time, argparse
ap = argparse.ArgumentParser()
ap.add_argument("--nproc", type=int, default=4)
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--tag", default="w{r} | ")
ap.add_argument("--rlimit-as-gb", type=float, default=0)
ap.add_argument("script"); ap.add_argument("args", nargs=argparse.REMAINDER)
a = ap.parse_args()
lock = threading.Lock()
def pump(p, tag):
    for line in iter(p.stdout.readline, b""):
        with lock:
            sys.stdout.write(tag + line.decode(errors="replace")); sys.stdout.flush()
def limit():
    if a.rlimit_as_gb:
        import resource
        n = int(a.rlimit_as_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (n, n))
procs = []
t0 = time.time()
print(f"[plaunch] starting {a.nproc} workers: {a.script} {' '.join(a.args)}", flush=True)
for r in range(a.nproc):
    env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(a.nproc), LOCAL_RANK=str(r),
               MASTER_ADDR="127.0.0.1", MASTER_PORT=str(a.port), PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, a.script] + a.args, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, preexec_fn=limit)
    th = threading.Thread(target=pump, args=(p, a.tag.format(r=r)), daemon=True); th.start()
    procs.append((p, th))
    print(f"[plaunch] worker {r} pid {p.pid}", flush=True)
rcs = []
for p, th in procs:
    p.wait(); th.join(); rcs.append(p.returncode)
print(f"[plaunch] all workers finished after {time.time()-t0:.1f}s", flush=True)
for r, rc in enumerate(rcs):
    print(f"[plaunch] worker {r}: exit code {rc}", flush=True)
bad = [r for r, rc in enumerate(rcs) if rc != 0]
print(f"[plaunch] {'FAILED' if bad else 'OK'}: {len(bad)}/{len(rcs)} workers failed", flush=True)
sys.exit(1 if bad else 0)
