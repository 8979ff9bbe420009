# Starts 4 gloo ranks of mr_rank.py for one scenario, writes each rank's output to
# <dir>/rankN.log and all of it, interleaved as it arrives, to stdout behind a launcher prefix
# (PREFIX=torchrun: `[rankN]:`, PREFIX=srun: `N: ` as `srun --label` prints, PREFIX=none: nothing,
# as when every rank writes to one terminal or `2>&1 | tee`). Exits 1 when any
# rank failed. torchrun is broken with torch 1.13 on Python 3.11 (see TESTING.md).
import os
import signal
import socket
import subprocess
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
scenario, log_dir = sys.argv[1], sys.argv[2]
prefix = os.environ.get("PREFIX", "torchrun")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
procs = []
for r in range(4):
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE="4", RANK=str(r),
               LOCAL_RANK=str(r), SCENARIO=scenario, PYTHONUNBUFFERED="1")
    procs.append(subprocess.Popen([sys.executable, os.path.join(here, "mr_rank.py")], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
lock = threading.Lock()


def pump(r, p):
    with open(os.path.join(log_dir, f"rank{r}.log"), "wb") as sink:
        for line in p.stdout:
            sink.write(line)
            sink.flush()
            tag = {"torchrun": f"[rank{r}]:", "srun": f"{r}: "}.get(prefix, "")  # "none": `2>&1 | tee`
            with lock:
                sys.stdout.buffer.write(tag.encode() + line)
                sys.stdout.flush()


threads = [threading.Thread(target=pump, args=(r, p)) for r, p in enumerate(procs)]
for t in threads:
    t.start()
if scenario == "sigint":
    # Ctrl-C once every rank waits in step 2 (what a user sees as "it is stuck, stop it").
    def waiting(r):
        try:
            return b"step 2 rank" in open(os.path.join(log_dir, f"rank{r}.log"), "rb").read()
        except OSError:
            return False
    deadline = time.time() + 90
    while time.time() < deadline and not all(waiting(r) for r in range(4)):
        time.sleep(0.2)
    time.sleep(1)
    for p in procs:
        p.send_signal(signal.SIGINT)
deadline = time.time() + 100
codes = [None] * 4
while None in codes and time.time() < deadline:
    for r, p in enumerate(procs):
        codes[r] = p.poll()
    # Like torchrun: once one worker failed, the others are stopped after a grace period.
    if any(c not in (None, 0) for c in codes) and None in codes:
        time.sleep(10)
        for p in procs:
            if p.poll() is None:
                p.terminate()
    time.sleep(0.2)
for t in threads:
    t.join()
sys.exit(1 if any(c != 0 for c in codes) else 0)
