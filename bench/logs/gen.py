"""Deterministic multi-rank training log with one failure buried in it.

usage: gen.py OUT SIZE_MIB [RANKS] [DENSITY]
Healthy lines of 64 ranks (step metrics, NCCL INFO, tqdm bars) interleaved; at 70% of the size
rank 37 runs out of memory, then the other ranks' NCCL watchdogs time out. DENSITY (0 to 1, default
0) is the fraction of lines that match a fingerprint: warnings PyTorch, DeepSpeed and apex print on
every step, in their exact text (from the encyclopedia's examples), spread over 12 fingerprints of
10 entries, each with the continuation lines Python prints after it. Same bytes every run."""
import sys

out, size_mib = sys.argv[1], int(sys.argv[2])
ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 64
density = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
target = size_mib << 20
fail_at = int(target * 0.7)

OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB. GPU 5 has a total capacity of 79.10 GiB "
       "of which 1.94 GiB is free. Including non-PyTorch memory, this process has 77.15 GiB memory in use. Of the allocated "
       "memory 74.39 GiB is allocated by PyTorch, and 1.26 GiB is reserved by PyTorch but unallocated. If reserved but "
       "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.")

# (lines that match a fingerprint, lines that follow them and match none). `{r}` is the rank,
# `{g}` and `{iso}` the clock in glog and ISO form, `{n}` a number that changes from step to step.
WARNINGS = [
    (["/usr/local/lib/python3.11/dist-packages/torch/_dynamo/eval_frame.py:745: UserWarning: torch.utils.checkpoint: "
      "the use_reentrant parameter should be passed explicitly. In version 2.5 we will raise an exception if "
      "use_reentrant is not passed. use_reentrant=False is recommended, but if you need to preserve the current default "
      "behavior, you can pass use_reentrant=True. Refer to docs for more details on the differences between the two "
      "variants."], ["  return fn(*args, **kwargs)"]),
    (["/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:31: UserWarning: None of the inputs have "
      "requires_grad=True. Gradients will be None",
      '  warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")'], []),
    (["W{g} 139927651080000 torch/_dynamo/convert_frame.py:762] [0/8] torch._dynamo hit "
      "config.cache_size_limit (8)"],
     ["W{g} 139927651080000 torch/_dynamo/convert_frame.py:762] [0/8]    function: 'forward' "
      "(/usr/local/lib/python3.8/dist-packages/transformers/models/llama/modeling_llama.py:1126)",
      "W{g} 139927651080000 torch/_dynamo/convert_frame.py:762] [0/8]    last reason: tensor "
      "'L['input_ids']' stride mismatch at index 0. expected 19, actual 27",
      'W{g} 139927651080000 torch/_dynamo/convert_frame.py:762] [0/8] To log all recompilation '
      'reasons, use TORCH_LOGS="recompiles".']),
    (["V{g} 49093 env/lib/python3.10/site-packages/torch/_dynamo/symbolic_convert.py:556] [0/0] "
      "[__graph_breaks] Graph break in user code at /home/SigLIP-2/model.py:102",
      "V{g} 49093 env/lib/python3.10/site-packages/torch/_dynamo/symbolic_convert.py:556] [0/0] "
      "[__graph_breaks] Graph Break Reason: Data dependent operator"],
     ["V{g} 49093 env/lib/python3.10/site-packages/torch/_dynamo/symbolic_convert.py:556] [0/0] "
      "[__graph_breaks]   Explanation: Operator `aten._local_scalar_dense.default` has a non-Tensor output whose value "
      "is dependent on the data of Tensor inputs."]),
    (["skipping cudagraphs due to mutated inputs (2 instances). Found from :"],
     ['   File "/workspace/model/norm.py", line 41, in forward',
      "    self.running_mean.mul_(1 - self.momentum).add_(mean, alpha=self.momentum)"]),
    (["CUDAGraph supports dynamic shapes by recording a new graph for each distinct input size. Recording too many "
      "CUDAGraphs may lead to extra overhead. We have observed {n} distinct sizes. Please consider the following options "
      "for better performance: a) padding inputs to a few fixed number of shapes; or b) set "
      "torch._inductor.config.triton.cudagraph_skip_dynamic_graphs=True. Set "
      "torch._inductor.config.triton.cudagraph_dynamic_shape_warn_limit=None to silence this warning."], []),
    (["Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {n}.0"], []),
    (["[{iso}] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank {r} Skipping "
      "step. Attempted loss scale: 4294967296, reducing to 2147483648"], []),
    (["[{iso}] torch._dynamo.convert_frame: [WARNING] WON'T CONVERT forward "
      "/workspace/project/model.py line 88 "], []),
    (["/workspace/train.py:10: UserWarning: Anomaly Detection has been enabled. This mode will increase the runtime and "
      "should only be enabled for debugging."], ["  with torch.autograd.detect_anomaly():"]),
]
# NCCL's start-up chatter: holds words of fingerprints (NET/Socket, NET/IB) without matching any.
NCCL_NEAR = ["node-{h:02d}:{p}:{q} [{l}] NCCL INFO NET/Socket : Using [0]eth0:10.0.{h}.{l}<0>",
             "node-{h:02d}:{p}:{q} [{l}] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.{h}.{l}<0>"]

state = 12345


def rnd():
    global state
    state = (state * 1103515245 + 12345) & 0x7FFFFFFF
    return state


lines_out = 0
matching = 0
steps_guess = target // (ranks * 110)  # so that the clock runs from 17:00 to about 18:06, one day


def clock(step):
    t = 17 * 3600 + step * 4000 / max(steps_guess, 1)
    h, m, sec = int(t // 3600), int(t // 60 % 60), t % 60
    return f"1002 {h:02d}:{m:02d}:{sec:09.6f}", f"2024-10-02 {h:02d}:{m:02d}:{int(sec):02d},{int(sec * 1000) % 1000:03d}"


def healthy(r, step, x):
    kind = x % 10
    if kind < 5:
        return f"[rank{r}]:step {step:7d} | loss {2.0 + (x % 1000) / 1000:.4f} | lr 3.00e-04 | grad_norm {(x % 977) / 300:.3f} | tokens/s {30000 + x % 20000}\n"
    if kind < 8:
        if kind == 7 and x % 7 == 0:
            t = NCCL_NEAR[x % 2].format(h=r // 8, p=4000 + r, q=4100 + r, l=r % 8)
            return f"[rank{r}]:{t}\n"
        return f"[rank{r}]:node-{r // 8:02d}:{4000 + r}:{4100 + r} [{r % 8}] NCCL INFO Channel {x % 32:02d}/0 : {r}[{r % 8}] -> {(r + 1) % ranks}[{(r + 1) % 8}] via P2P/IPC/read\n"
    p = x % 100
    return f"[rank{r}]:Epoch 3: {p:3d}%|{'#' * (p // 10)}{' ' * (10 - p // 10)}| {p * 100}/10000 [12:01<14:41,  6.24it/s, loss={2 + (x % 100) / 100:.2f}]\n"


def block(step):
    global lines_out, matching
    lines = []
    for r in range(ranks):
        x = rnd()
        if density > 0 and matching < density * (lines_out + 1):
            hit, rest = WARNINGS[(x >> 4) % len(WARNINGS)]
            g, iso = clock(step)
            for t in hit + rest:
                lines.append(f"[rank{r}]:" + t.format(r=r, g=g, iso=iso, n=step % 97 + 3) + "\n")
            matching += len(hit)
            lines_out += len(hit) + len(rest)
        else:
            lines.append(healthy(r, step, x))
            lines_out += 1
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
