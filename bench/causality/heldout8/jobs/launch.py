#!/usr/bin/python3
# A small launcher a user might write instead of torchrun (which fails at start on Python 3.11 in
# torch 1.13): starts N ranks of SCRIPT with MASTER_ADDR/MASTER_PORT/WORLD_SIZE/RANK/LOCAL_RANK set.
#   --prefix FMT   read each rank's merged stdout+stderr line by line (a thread per rank) and print
#                  it with FMT in front ('{r}' = rank), like torchrun --tee/--role prefixes
#                  (without --prefix, ranks inherit this process's stdout/stderr)
#   --files DIR    each rank's stdout+stderr goes to DIR/rank_{r}.log instead
#   --report       print one line per worker as it exits (exit code or signal)
#   --forward      forward SIGTERM/SIGINT received by the launcher to all workers
#   --no-u         run python without -u (block-buffered stdout)
import argparse, os, signal, socket, subprocess, sys, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("-n", type=int, required=True)
ap.add_argument("--prefix")
ap.add_argument("--files")
ap.add_argument("--report", action="store_true")
ap.add_argument("--forward", action="store_true")
ap.add_argument("--no-u", action="store_true")
ap.add_argument("--pidfile")
ap.add_argument("script")
ap.add_argument("args", nargs="*")
a = ap.parse_args()

s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
procs, threads = [], []
# workers get the default SIGINT action back (run.sh starts this launcher with `&`, which makes a
# non-interactive bash ignore SIGINT), as they would have when started from a terminal
def child_setup():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
out_lock = threading.Lock()

def pump(r, pipe):
    pfx = a.prefix.format(r=r).encode()
    for line in iter(pipe.readline, b""):
        with out_lock:
            sys.stdout.buffer.write(pfx + line)
            sys.stdout.buffer.flush()

for r in range(a.n):
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE=str(a.n),
               RANK=str(r), LOCAL_RANK=str(r))
    cmd = [sys.executable] + ([] if a.no_u else ["-u"]) + [a.script] + a.args
    if a.prefix is not None:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=child_setup)
        t = threading.Thread(target=pump, args=(r, p.stdout), daemon=True); t.start(); threads.append(t)
    elif a.files:
        os.makedirs(a.files, exist_ok=True)
        f = open(os.path.join(a.files, f"rank_{r}.log"), "wb")
        p = subprocess.Popen(cmd, env=env, stdout=f, stderr=subprocess.STDOUT, preexec_fn=child_setup)
    else:
        p = subprocess.Popen(cmd, env=env, preexec_fn=child_setup)
    procs.append(p)

if a.pidfile:
    with open(a.pidfile, "w") as f:
        f.write(" ".join(str(p.pid) for p in procs) + "\n")

if a.forward:
    def fwd(signum, frame):
        with out_lock:
            print(f"launcher: got {signal.Signals(signum).name}, forwarding to {len(procs)} workers", flush=True)
        for p in procs:
            if p.poll() is None:
                p.send_signal(signum)
    signal.signal(signal.SIGTERM, fwd); signal.signal(signal.SIGINT, fwd)
else:
    signal.signal(signal.SIGINT, signal.SIG_IGN)

left = set(range(a.n)); worst = 0
while left:
    for r in sorted(left):
        rc = procs[r].poll()
        if rc is None:
            continue
        left.discard(r)
        if rc != 0:
            worst = worst or (rc if rc > 0 else 128 - rc)
        if a.report:
            how = f"exit code {rc}" if rc >= 0 else f"signal {signal.Signals(-rc).name}"
            with out_lock:
                print(f"launcher: worker {r} (pid {procs[r].pid}) finished with {how}", flush=True)
    time.sleep(0.05)
for t in threads:
    t.join(timeout=2)
sys.exit(worst)
