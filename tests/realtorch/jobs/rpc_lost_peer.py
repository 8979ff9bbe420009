# Three torch.distributed.rpc workers (TensorPipe) on one host, started the way a shell script
# starts them: every worker's output on one console, no prefixes. Worker "0", the one the others
# call, leaves with os._exit(1) after a second (a parameter server that dies); the job fails.
import os
import socket
import subprocess
import sys
import time

if len(sys.argv) > 1:  # one worker
    import torch
    import torch.distributed.rpc as rpc

    def square(x):
        return x * x

    rank = int(os.environ["RANK"])
    rpc.init_rpc(str(rank), rank=rank, world_size=3,
                 rpc_backend_options=rpc.TensorPipeRpcBackendOptions(rpc_timeout=10))
    print(f"rpc worker {rank} up", flush=True)
    if rank == 0:
        time.sleep(1.0)
        os._exit(1)
    for step in range(30):
        rpc.rpc_sync("0", square, args=(torch.ones(2),))
        time.sleep(0.2)
    rpc.shutdown()
    sys.exit(0)

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "worker"],
                          env=dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(r)))
         for r in range(3)]
codes = [p.wait(timeout=120) for p in procs]
sys.exit(1 if any(codes) else 0)
