#!/usr/bin/python3
"""launch_ranks.py - start a local multi-process gloo job (torchrun replacement; torchrun 1.13
does not start on Python 3.11).

usage: launch_ranks.py -n N [options] script.py [args...]
  --tag FMT        prefix every output line of rank r with FMT.format(r=r) (pipe + thread per rank)
  --logdir DIR     write rank r's stdout+stderr to DIR/--logname (default rank{r}.log)
  --logname FMT    file name pattern for --logdir
  --watch          print 'worker R exited with code C' / 'worker R killed by SIGNAME' as ranks end,
                   and 'all workers finished' at the end
  --kill-rest S    after the first non-zero exit, wait S seconds and SIGTERM the rest (like torchrun)
  --delay R:S      start rank R S seconds after the others
  --pidfile F      write the worker pids, one line, rank order
  --forward        forward SIGTERM/SIGINT to the workers
  --master-addr A  MASTER_ADDR for the workers (default 127.0.0.1)
  --nproc-per-node K  LOCAL_RANK = rank % K (pretend K ranks per node)
"""
import argparse, os, signal, socket, subprocess, sys, threading, time

p = argparse.ArgumentParser()
p.add_argument("-n", type=int, required=True)
p.add_argument("--tag"); p.add_argument("--logdir"); p.add_argument("--logname", default="rank{r}.log")
p.add_argument("--watch", action="store_true"); p.add_argument("--kill-rest", type=float)
p.add_argument("--delay", action="append", default=[]); p.add_argument("--pidfile")
p.add_argument("--forward", action="store_true"); p.add_argument("--nproc-per-node", type=int)
p.add_argument("--master-addr", default="127.0.0.1")
p.add_argument("script"); p.add_argument("args", nargs=argparse.REMAINDER)
a = p.parse_args()

s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
delays = {int(d.split(":")[0]): float(d.split(":")[1]) for d in a.delay}
lock = threading.Lock()
procs = [None] * a.n; pumps = []

def pump(r, f):
    tag = a.tag.format(r=r).encode()
    for line in iter(f.readline, b""):
        with lock:
            sys.stdout.buffer.write(tag + line); sys.stdout.buffer.flush()

def reset_sig():
    signal.signal(signal.SIGINT, signal.SIG_DFL); signal.signal(signal.SIGTERM, signal.SIG_DFL)

def start(r):
    env = dict(os.environ, MASTER_ADDR=a.master_addr, MASTER_PORT=str(port), WORLD_SIZE=str(a.n),
               RANK=str(r), LOCAL_RANK=str(r % a.nproc_per_node if a.nproc_per_node else r))
    cmd = [sys.executable, "-u", a.script] + a.args
    if a.tag is not None:
        pr = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=reset_sig)
        t = threading.Thread(target=pump, args=(r, pr.stdout), daemon=True); t.start(); pumps.append(t)
    elif a.logdir:
        os.makedirs(a.logdir, exist_ok=True)
        f = open(os.path.join(a.logdir, a.logname.format(r=r)), "wb")
        pr = subprocess.Popen(cmd, env=env, stdout=f, stderr=subprocess.STDOUT, preexec_fn=reset_sig)
    else:
        pr = subprocess.Popen(cmd, env=env, preexec_fn=reset_sig)
    procs[r] = pr

t0 = time.time()
for r in range(a.n):
    if r not in delays:
        start(r)
if a.forward:
    def fwd(sig, fr):
        for pr in procs:
            if pr is not None and pr.poll() is None:
                pr.send_signal(sig)
    signal.signal(signal.SIGTERM, fwd); signal.signal(signal.SIGINT, fwd)
pending = dict(delays)
if a.pidfile and not pending:
    open(a.pidfile, "w").write(" ".join(str(pr.pid) for pr in procs) + "\n")
alive = set(range(a.n)); rc_all = 0; first_fail = None
while alive:
    for r, d in list(pending.items()):
        if time.time() - t0 >= d:
            start(r); del pending[r]
            if a.pidfile and not pending:
                open(a.pidfile, "w").write(" ".join(str(pr.pid) for pr in procs) + "\n")
    for r in sorted(alive):
        if procs[r] is None:
            continue
        rc = procs[r].poll()
        if rc is None:
            continue
        alive.discard(r)
        if rc != 0:
            rc_all = rc_all or (rc if rc > 0 else 128 - rc)
            if first_fail is None:
                first_fail = time.time()
        if a.watch:
            msg = f"worker {r} exited with code {rc}" if rc >= 0 else f"worker {r} killed by {signal.Signals(-rc).name}"
            with lock:
                print(msg, flush=True)
    if a.kill_rest is not None and first_fail is not None and time.time() - first_fail > a.kill_rest:
        for r in sorted(alive):
            if procs[r] is not None and procs[r].poll() is None:
                procs[r].terminate()
        first_fail = float("inf")
    time.sleep(0.05)
for t in pumps:
    t.join(timeout=2)
if a.watch:
    print("all workers finished", flush=True)
sys.exit(rc_all)
