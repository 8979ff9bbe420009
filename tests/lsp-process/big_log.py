"""`denpex lsp` given a 100 MB log in one didOpen (what Neovim sends for a big file): the failure at
its end is published within a bounded time, the server's peak memory stays bounded, and it keeps
answering and exits cleanly. Usage: big_log.py DENPEX [SIZE_MB]"""
import json
import os
import select
import subprocess
import sys
import time

DENPEX = sys.argv[1]
SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 100
LIMIT_S = 60
PEAK_LIMIT_MIB = 1024


def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_exactly(fd, n, deadline):
    out = b""
    while len(out) < n:
        left = deadline - time.time()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError(f"no answer from the server within {LIMIT_S} s")
        chunk = os.read(fd, n - len(out))
        if not chunk:
            raise EOFError("the server closed its output")
        out += chunk
    return out


def read_message(fd, deadline):
    headers = b""
    while not headers.endswith(b"\r\n\r\n"):
        headers += read_exactly(fd, 1, deadline)
    length = int([h for h in headers.split(b"\r\n") if h.lower().startswith(b"content-length:")][0].split(b":")[1])
    return json.loads(read_exactly(fd, length, deadline))


def peak_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return -1


def main():
    step = "[rank3]:step {:>7} | loss 2.3141 | lr 3.00e-04 | tokens/s 41873 | mem 71.2 GiB\n"
    lines, size, n = [], 0, 0
    while size < SIZE * 1000 * 1000:
        line = step.format(n)
        lines.append(line)
        size += len(line)
        n += 1
    # Real PyTorch 2.x text for the failure the server must find at the very end.
    lines.append("[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total "
                 "capacity of 79.11 GiB of which 1.19 GiB is free. Including non-PyTorch memory, this process has 77.91 GiB "
                 "memory in use. Of the allocated memory 74.02 GiB is allocated by PyTorch, and 2.38 GiB is reserved by "
                 "PyTorch but unallocated.\n")
    text = "".join(lines)
    uri = "file:///big/train.log"
    server = subprocess.Popen([DENPEX, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    start = time.time()
    deadline = start + LIMIT_S
    try:
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                  "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                  "params": {"textDocument": {"uri": uri, "languageId": "log", "version": 1, "text": text}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                                  "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}}))
        server.stdin.flush()
        published, answered = None, False
        while published is None or not answered:
            m = read_message(server.stdout.fileno(), deadline)
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and m["params"]["diagnostics"]:
                published = m["params"]["diagnostics"]
            if m.get("id") == 2:
                answered = True
        took = time.time() - start
        peak = peak_mib(server.pid)
        codes = {d.get("code") for d in published}
        lines_hit = {d["range"]["start"]["line"] for d in published}
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        server.stdin.close()
        rc = server.wait(timeout=10)
    except Exception as e:  # noqa: BLE001 - any failure is the test's failure
        server.kill()
        print(f"FAIL: {e}")
        return 1
    print(f"{len(text) / 1e6:.0f} MB log: published {sorted(codes)} on lines {sorted(lines_hit)} "
          f"in {took:.1f} s, peak RSS {peak} MiB, exit {rc}")
    ok = True
    if "cuda-oom" not in codes:
        print("FAIL: the CUDA OOM at the end was not published"); ok = False
    if len(lines) - 1 not in lines_hit:
        print(f"FAIL: expected a diagnostic on line {len(lines) - 1}"); ok = False
    if peak > PEAK_LIMIT_MIB:
        print(f"FAIL: peak RSS {peak} MiB > {PEAK_LIMIT_MIB} MiB"); ok = False
    if rc != 0:
        print(f"FAIL: exit code {rc}"); ok = False
    return 0 if ok else 1


sys.exit(main())
