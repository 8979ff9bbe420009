"""Deterministic multi-rank training log with one failure buried in it.

usage: gen.py OUT SIZE_MIB [RANKS]
Healthy lines of 64 ranks (step metrics, NCCL INFO, tqdm bars) interleaved; at 70% of the size
rank 37 runs out of memory, then the other ranks' NCCL watchdogs time out. Same bytes every run."""
import sys

out, size_mib = sys.argv[1], int(sys.argv[2])
ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 64
target = size_mib << 20
fail_at = int(target * 0.7)

OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB. GPU 5 has a total capacity of 79.10 GiB "
       "of which 1.94 GiB is free. Including non-PyTorch memory, this process has 77.15 GiB memory in use. Of the allocated "
       "memory 74.39 GiB is allocated by PyTorch, and 1.26 GiB is reserved by PyTorch but unallocated. If reserved but "
       "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.")

state = 12345


def rnd():
    global state
    state = (state * 1103515245 + 12345) & 0x7FFFFFFF
    return state


def block(step):
    lines = []
    for r in range(ranks):
        x = rnd()
        kind = x % 10
        if kind < 5:
            lines.append(f"[rank{r}]:step {step:7d} | loss {2.0 + (x % 1000) / 1000:.4f} | lr 3.00e-04 | grad_norm {(x % 977) / 300:.3f} | tokens/s {30000 + x % 20000}\n")
        elif kind < 8:
            lines.append(f"[rank{r}]:node-{r // 8:02d}:{4000 + r}:{4100 + r} [{r % 8}] NCCL INFO Channel {x % 32:02d}/0 : {r}[{r % 8}] -> {(r + 1) % ranks}[{(r + 1) % 8}] via P2P/IPC/read\n")
        else:
            p = x % 100
            lines.append(f"[rank{r}]:Epoch 3: {p:3d}%|{'#' * (p // 10)}{' ' * (10 - p // 10)}| {p * 100}/10000 [12:01<14:41,  6.24it/s, loss={2 + (x % 100) / 100:.2f}]\n")
    return "".join(lines)


written = 0
step = 0
failed = False
with open(out, "w") as f:
    while written < target:
        chunk = "".join(block(step + i) for i in range(16))
        step += 16
        if not failed and written + len(chunk) >= fail_at:
            tb = ["Traceback (most recent call last):", '  File "/workspace/train.py", line 214, in <module>',
                  "    loss = model(batch).loss", OOM]
            chunk += "".join(f"[rank37]: {t}\n" for t in tb)
            failed = True
        if failed and written + len(chunk) >= fail_at + (4 << 20) and failed != 2:
            chunk += "".join(
                f"[rank{r}]:[E1002 18:16:40.663099355 ProcessGroupNCCL.cpp:632] [Rank {r}] Watchdog caught collective operation timeout: "
                f"WorkNCCL(SeqNum=2521, OpType=ALLREDUCE, NumelIn=160672064, NumelOut=160672064, Timeout(ms)=600000) ran for 600000 milliseconds before timing out.\n"
                for r in range(ranks) if r != 37)
            failed = 2
        f.write(chunk)
        written += len(chunk)
