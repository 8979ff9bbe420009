# Starts 4 gloo ranks like torchrun does (`[rankN]:` prefixes on every line) and fails when any
# rank fails. torchrun itself is broken with torch 1.13 on Python 3.11 (see TESTING.md).
import os
import socket
import subprocess
import sys
import threading

here = os.path.dirname(os.path.abspath(__file__))
log_dir = sys.argv[1] if len(sys.argv) > 1 else None
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
procs, threads = [], []
for r in range(4):
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE="4", RANK=str(r), LOCAL_RANK=str(r))
    procs.append(subprocess.Popen([sys.executable, os.path.join(here, "gloo_rank.py")], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT))

def pump(r, p):
    sink = open(os.path.join(log_dir, f"rank{r}.log"), "wb") if log_dir else None
    for line in p.stdout:
        if sink:
            sink.write(line)
        sys.stderr.buffer.write(f"[rank{r}]:".encode() + line)
        sys.stderr.flush()

for r, p in enumerate(procs):
    t = threading.Thread(target=pump, args=(r, p))
    t.start()
    threads.append(t)
codes = [p.wait(timeout=120) for p in procs]
for t in threads:
    t.join()
sys.exit(1 if any(codes) else 0)
