#!/usr/bin/env python3
"""Latency and memory of `denpex lsp`, side by side with pyright's language server in one run.

For each server, over pipes with a minimal JSON-RPC client (Content-Length framing):
  - initialize: time from spawning the process to the initialize reply (and from the request
    alone), then initialized;
  - didOpen of a generated 5,000-line PyTorch training script (bench/lsp/gen.py), time to its
    first publishDiagnostics;
  - N scripted single-character edits (incremental didChange with a range; an insertion, then its
    deletion, at a different line in the middle of the file each pair), each waited for:
    didChange -> the publishDiagnostics for that uri carrying that version (p50/p90/p99/max);
  - peak RSS (VmHWM from /proc/PID/status) after the edits, before shutdown;
  - denpex only: didOpen of a generated 100,000-line torchrun log (languageId `log`, an 8-rank
    failure at the end) -> its publishDiagnostics; peak RSS again after it.
Prints a table (median over --runs) and writes everything to bench/out/lsp.json.

Usage: bench/lsp/run.py [--denpex build/denpex] [--no-pyright] [--edits 500] [--runs 3]
Setup (once, for pyright): npm install --prefix bench/out pyright@1.1.414
Stdlib only.
"""
import argparse
import json
import os
import platform
import queue
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "bench", "out")
sys.path.insert(0, HERE)
import gen  # noqa: E402

PYRIGHT_VERSION = "1.1.414"
PY_LINES = 5000
LOG_LINES = 100000

# Targets (docs/performance.md): reported against, not tuned for.
TARGETS = {
    "edit_p50_ms": 5.0,
    "edit_p99_ms": 20.0,
    "initialize_ms": 30.0,
    "peak_rss_mb": 40.0,
    "log_ms": 150.0,
}


def file_uri(path):
    return "file://" + path


class Client:
    """One language server over pipes. A reader thread takes frames off stdout, stamps each with
    time.perf_counter() as soon as its body is complete, answers the server's own requests
    (workspace/configuration: one null per item; anything else: null) and queues notifications
    and responses for the main thread."""

    def __init__(self, cmd, cwd, stderr_path):
        self.stderr = open(stderr_path, "wb")
        self.t_spawn = time.perf_counter()
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, bufsize=0)
        self.wlock = threading.Lock()
        self.next_id = 1
        self.responses = {}
        self.rcond = threading.Condition()
        self.diags = queue.Queue()
        self.server_requests = {}
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # --- wire ---

    def _write(self, msg):
        body = json.dumps(msg, separators=(",", ":")).encode()
        frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self.wlock:
            t = time.perf_counter()
            self.proc.stdin.write(frame)
        return t

    def _read(self):
        fd = self.proc.stdout.fileno()
        buf = b""
        while True:
            while True:
                end = buf.find(b"\r\n\r\n")
                if end < 0:
                    break
                length = None
                for line in buf[:end].split(b"\r\n"):
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v)
                if length is None:
                    raise RuntimeError("frame without Content-Length: %r" % buf[:end])
                if len(buf) < end + 4 + length:
                    break
                body = buf[end + 4:end + 4 + length]
                buf = buf[end + 4 + length:]
                t = time.perf_counter()
                self._dispatch(json.loads(body), t, length)
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                with self.rcond:
                    self.closed = True
                    self.rcond.notify_all()
                self.diags.put(None)
                return
            buf += chunk

    def _dispatch(self, msg, t, size):
        method = msg.get("method")
        if method is not None and "id" in msg:
            self.server_requests[method] = self.server_requests.get(method, 0) + 1
            if method == "workspace/configuration":
                result = [None for _ in msg.get("params", {}).get("items", [])]
            else:
                result = None  # window/workDoneProgress/create, client/registerCapability, ...
            self._write({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        elif method == "textDocument/publishDiagnostics":
            p = msg["params"]
            self.diags.put((t, p["uri"], p.get("version"), len(p.get("diagnostics", [])), size))
        elif method is None:
            with self.rcond:
                self.responses[msg.get("id")] = (t, msg)
                self.rcond.notify_all()

    # --- protocol ---

    def request(self, method, params, timeout=60):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:  # `params: null` is not JSON-RPC 2.0 (shutdown, exit: omitted)
            msg["params"] = params
        t0 = self._write(msg)
        deadline = time.monotonic() + timeout
        with self.rcond:
            while rid not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise RuntimeError("%s: no reply (%s)" % (method, "server exited" if self.closed else "timeout"))
                self.rcond.wait(left)
            t1, msg = self.responses.pop(rid)
        if "error" in msg:
            raise RuntimeError("%s: %s" % (method, msg["error"]))
        return t0, t1, msg.get("result")

    def notify(self, method, params):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        return self._write(msg)

    def notify_frame(self, method, params):
        """Encodes now; returns a function that sends and returns the send time (so the JSON
        encoding of a large didOpen is not timed)."""
        body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params}, separators=(",", ":")).encode()
        frame = b"Content-Length: %d\r\n\r\n" % len(body) + body

        def send():
            with self.wlock:
                t = time.perf_counter()
                self.proc.stdin.write(frame)
            return t
        return send

    def wait_diagnostics(self, uri, version, timeout):
        """The first publishDiagnostics for uri whose version is >= version (or carries none).
        Returns (time, version, count, bytes) or None on timeout. Others are dropped."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                item = self.diags.get(timeout=left)
            except queue.Empty:
                return None
            if item is None:
                raise RuntimeError("server exited while waiting for diagnostics")
            t, u, v, n, size = item
            if u != uri:
                continue
            if version is None or v is None or v >= version:
                return t, v, n, size

    def drain_diagnostics(self):
        while True:
            try:
                if self.diags.get_nowait() is None:
                    return
            except queue.Empty:
                return

    def status_kb(self, field):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        return None

    def cpu_ms(self):
        """User + system CPU time of the server process so far (all its threads), in ms."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")

    def shutdown(self):
        try:
            self.request("shutdown", None, timeout=30)
            self.notify("exit", None)
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception as e:
            print("%s: shutdown failed (%s); killing it" % (self.proc.args[0], e), file=sys.stderr)
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()
        return self.proc.returncode


def percentile(sorted_vals, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_vals:
        return float("nan")
    pos = (len(sorted_vals) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def edit_script(text, n, seed):
    """n single-character edits: pairs of (insert a letter at a column of a non-blank line in the
    middle 30-70% of the file, then delete it), a different line for each pair."""
    rng = random.Random(seed)
    lines = text.split("\n")
    lo, hi = int(len(lines) * 0.3), int(len(lines) * 0.7)
    candidates = [i for i in range(lo, hi) if lines[i].strip()]
    rng.shuffle(candidates)
    edits = []
    for k in range(n):
        if k % 2 == 0:
            line = candidates[(k // 2) % len(candidates)]
            s = lines[line]
            indent = len(s) - len(s.lstrip())
            col = rng.randint(indent, len(s))
            ch = rng.choice("abcdefghijklmnopqrstuvwxyz_")
            edits.append({"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}},
                          "text": ch})
        else:
            prev = edits[-1]["range"]["start"]
            edits.append({"range": {"start": dict(prev), "end": {"line": prev["line"], "character": prev["character"] + 1}},
                          "text": ""})
    return edits


def session(name, cmd, ws, py_text, log_text, edits, with_log, edit_timeout):
    res = {"server": name, "command": cmd}
    client = Client(cmd, ws, os.path.join(OUT, "lsp-%s.stderr" % name))
    pid = client.proc.pid
    py_path = os.path.join(ws, "train.py")
    py_uri = file_uri(py_path)
    caps = {
        "workspace": {"configuration": True, "workspaceFolders": True, "didChangeConfiguration": {"dynamicRegistration": True}},
        "textDocument": {
            "synchronization": {"dynamicRegistration": False, "didSave": True},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True, "codeDescriptionSupport": True,
                                   "dataSupport": True},
        },
        "window": {"workDoneProgress": True},
        "general": {"positionEncodings": ["utf-16"]},
    }
    t0, t1, result = client.request("initialize", {
        "processId": os.getpid(), "clientInfo": {"name": "denpex-bench"}, "rootUri": file_uri(ws),
        "workspaceFolders": [{"uri": file_uri(ws), "name": "ws"}], "capabilities": caps})
    res["initialize_from_spawn_ms"] = (t1 - client.t_spawn) * 1000
    res["initialize_request_ms"] = (t1 - t0) * 1000
    res["server_info"] = (result or {}).get("serverInfo")
    client.notify("initialized", {})
    # The floor of every latency below: a request the server answers at once (MethodNotFound),
    # round trip through this client and the pipes. The first also waits until `initialized` was
    # handled (denpex loads its encyclopedia there), so the RSS read after it includes the library.
    pings = []
    for _ in range(50):
        t0 = client._write({"jsonrpc": "2.0", "id": client.next_id, "method": "$/denpexBench/ping", "params": {}})
        rid = client.next_id
        client.next_id += 1
        with client.rcond:
            while rid not in client.responses:
                if not client.rcond.wait(30):
                    raise RuntimeError("%s: no reply to a ping" % name)
            t1, _ = client.responses.pop(rid)
        pings.append((t1 - t0) * 1000)
    res["ping_p50_ms"] = statistics.median(pings)
    res["peak_rss_after_initialized_mb"] = client.status_kb("VmHWM") / 1024

    send = client.notify_frame("textDocument/didOpen", {"textDocument": {"uri": py_uri, "languageId": "python", "version": 1, "text": py_text}})
    t0 = send()
    got = client.wait_diagnostics(py_uri, 1, 120)
    if got is None:
        raise RuntimeError("%s: no diagnostics for the opened file within 120 s" % name)
    res["open_ms"] = (got[0] - t0) * 1000
    res["open_diagnostics"] = got[2]
    time.sleep(0.5)  # let any second publish of the open (pyright: syntax, then semantic pass) go by
    client.drain_diagnostics()

    lat, counts, timeouts, stale, newer = [], [], 0, 0, 0
    cpu0 = client.cpu_ms()
    for k, e in enumerate(edits):
        version = k + 2
        t0 = client.notify("textDocument/didChange", {"textDocument": {"uri": py_uri, "version": version}, "contentChanges": [e]})
        got = client.wait_diagnostics(py_uri, version, edit_timeout)
        if got is None:
            # Counted at the timeout (a lower bound), not dropped: dropping would flatter the
            # percentiles of a server that falls behind.
            timeouts += 1
            lat.append(edit_timeout * 1000)
            continue
        if got[1] is None:
            stale += 1
        elif got[1] != version:
            newer += 1
        lat.append((got[0] - t0) * 1000)
        counts.append(got[2])
    cpu_edits = client.cpu_ms() - cpu0
    lat_sorted = sorted(lat)
    res["edits"] = {
        "n": len(edits), "answered": len(lat) - timeouts, "timeouts": timeouts, "without_version": stale, "other_version": newer,
        "p50_ms": percentile(lat_sorted, 0.5), "p90_ms": percentile(lat_sorted, 0.9),
        "p99_ms": percentile(lat_sorted, 0.99), "max_ms": lat_sorted[-1] if lat_sorted else float("nan"),
        "mean_ms": statistics.mean(lat) if lat else float("nan"),
        "cpu_per_edit_ms": cpu_edits / len(edits) if edits else float("nan"),
        "diagnostics_min": min(counts) if counts else None, "diagnostics_max": max(counts) if counts else None,
        "samples_ms": [round(x, 3) for x in lat],
    }
    res["peak_rss_after_edits_mb"] = client.status_kb("VmHWM") / 1024
    res["rss_after_edits_mb"] = client.status_kb("VmRSS") / 1024

    if with_log:
        log_path = os.path.join(ws, "train.log")
        log_uri = file_uri(log_path)
        send = client.notify_frame("textDocument/didOpen", {"textDocument": {"uri": log_uri, "languageId": "log", "version": 1, "text": log_text}})
        cpu0 = client.cpu_ms()
        t0 = send()
        got = client.wait_diagnostics(log_uri, 1, 120)
        res["log_cpu_ms"] = client.cpu_ms() - cpu0
        if got is None:
            raise RuntimeError("%s: no diagnostics for the log within 120 s" % name)
        res["log_ms"] = (got[0] - t0) * 1000
        res["log_diagnostics"] = got[2]
        time.sleep(0.2)
        res["peak_rss_after_log_mb"] = client.status_kb("VmHWM") / 1024
        res["rss_after_log_mb"] = client.status_kb("VmRSS") / 1024
    res["threads"] = client.status_kb("Threads")  # a count, not kB
    res["server_requests"] = client.server_requests
    res["exit_code"] = client.shutdown()
    res["pid"] = pid
    return res


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = None
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1]) // 1024
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "mem_mb": mem, "kernel": platform.release(),
            "python": platform.python_version()}


def node_version():
    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


def med(runs, *path):
    vals = []
    for r in runs:
        v = r
        for p in path:
            v = v.get(p) if isinstance(v, dict) else None
        if isinstance(v, (int, float)):
            vals.append(v)
    return statistics.median(vals) if vals else None


def fmt(v, unit=""):
    if v is None:
        return "-"
    return ("%.1f" % v if v >= 100 else "%.2f" % v) + unit


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--denpex", default=os.path.join(ROOT, "build", "denpex"))
    ap.add_argument("--pyright", default=os.path.join(OUT, "node_modules", "pyright", "langserver.index.js"),
                    help="pyright's langserver.index.js (npm install --prefix bench/out pyright@%s)" % PYRIGHT_VERSION)
    ap.add_argument("--no-pyright", action="store_true")
    ap.add_argument("--edits", type=int, default=500)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--edit-timeout", type=float, default=10.0, help="seconds to wait for one edit's diagnostics")
    ap.add_argument("--out", default=os.path.join(OUT, "lsp.json"))
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    denpex = os.path.abspath(args.denpex)
    if not os.access(denpex, os.X_OK):
        raise SystemExit("no denpex binary at %s (--denpex PATH)" % denpex)
    use_pyright = not args.no_pyright
    pyright_version = None
    if use_pyright:
        if not os.path.exists(args.pyright):
            raise SystemExit("pyright not found at %s: npm install --prefix bench/out pyright@%s (or --no-pyright)" % (args.pyright, PYRIGHT_VERSION))
        with open(os.path.join(os.path.dirname(args.pyright), "package.json")) as f:
            pyright_version = json.load(f)["version"]

    py_text = gen.python_script(PY_LINES, seed=1)
    log_text = gen.training_log(os.path.join(ROOT, "examples", "oom-cascade", "train.log"), LOG_LINES, seed=1)
    edits = edit_script(py_text, args.edits, seed=7)
    ws = tempfile.mkdtemp(prefix="denpex-lsp-bench-")
    try:
        with open(os.path.join(ws, "train.py"), "w") as f:
            f.write(py_text)
        with open(os.path.join(ws, "train.log"), "w") as f:
            f.write(log_text)
        m = machine()
        print("Machine: %s, %d cores, %s MiB; node %s; pyright %s; denpex %s" %
              (m["cpu"], m["cores"], m["mem_mb"], node_version(), pyright_version or "-", denpex))
        print("Workload: train.py %d lines (%d bytes), %d edits; train.log %d lines (%.1f MB)" %
              (PY_LINES, len(py_text), len(edits), LOG_LINES, len(log_text) / 1e6))
        runs = []
        for r in range(args.runs):
            run = {"load_before": os.getloadavg()}
            run["denpex"] = session("denpex", [denpex, "lsp"], ws, py_text, log_text, edits, True, args.edit_timeout)
            if use_pyright:
                run["pyright"] = session("pyright", ["node", args.pyright, "--stdio"], ws, py_text, log_text, edits, False,
                                         args.edit_timeout)
            run["load_after"] = os.getloadavg()
            runs.append(run)
            d = run["denpex"]
            line = "run %d (load %.2f -> %.2f): denpex edit p50 %.2f p99 %.2f ms, init %.1f ms, log %.1f ms, VmHWM %.1f MB" % (
                r + 1, run["load_before"][0], run["load_after"][0], d["edits"]["p50_ms"], d["edits"]["p99_ms"],
                d["initialize_from_spawn_ms"], d["log_ms"], d["peak_rss_after_log_mb"])
            if use_pyright:
                p = run["pyright"]
                line += "; pyright edit p50 %.1f p99 %.1f ms (%d timeouts)" % (p["edits"]["p50_ms"], p["edits"]["p99_ms"], p["edits"]["timeouts"])
            print(line, flush=True)

        rows = [
            ("initialize answered, from spawn (ms)", ("initialize_from_spawn_ms",), "initialize_ms"),
            ("initialize answered, from the request (ms)", ("initialize_request_ms",), None),
            ("round trip of a request answered at once, p50 (ms)", ("ping_p50_ms",), None),
            ("peak RSS after initialized (MB)", ("peak_rss_after_initialized_mb",), None),
            ("didOpen 5,000 lines -> first diagnostics (ms)", ("open_ms",), None),
            ("didChange -> publishDiagnostics p50 (ms)", ("edits", "p50_ms"), "edit_p50_ms"),
            ("didChange -> publishDiagnostics p90 (ms)", ("edits", "p90_ms"), None),
            ("didChange -> publishDiagnostics p99 (ms)", ("edits", "p99_ms"), "edit_p99_ms"),
            ("didChange -> publishDiagnostics max (ms)", ("edits", "max_ms"), None),
            ("server CPU per edit (ms, user+sys)", ("edits", "cpu_per_edit_ms"), None),
            ("peak RSS after the edits (MB)", ("peak_rss_after_edits_mb",), "peak_rss_mb"),
            ("didOpen 100,000-line log -> diagnostics (ms)", ("log_ms",), "log_ms"),
            ("server CPU for the log open (ms, user+sys; 10 ms ticks)", ("log_cpu_ms",), None),
            ("peak RSS after the log (MB)", ("peak_rss_after_log_mb",), "peak_rss_mb"),
            ("RSS after the log (MB)", ("rss_after_log_mb",), None),
        ]
        summary = {}
        print("\nMedian of %d runs:\n" % args.runs)
        print("| measure | denpex | pyright %s | pyright / denpex | target | met |" % (pyright_version or ""))
        print("|---|---|---|---|---|---|")
        for label, path, target in rows:
            dv = med([r["denpex"] for r in runs], *path)
            pv = med([r["pyright"] for r in runs], *path) if use_pyright else None
            ratio = pv / dv if (pv is not None and dv) else None
            tv = TARGETS.get(target) if target else None
            met = None if tv is None or dv is None else dv <= tv
            summary[".".join(path)] = {"denpex": dv, "pyright": pv, "ratio": ratio, "target": tv, "met": met}
            print("| %s | %s | %s | %s | %s | %s |" % (label, fmt(dv), fmt(pv), "%.1fx" % ratio if ratio else "-",
                                                       "<= %g" % tv if tv else "", "" if met is None else ("yes" if met else "NO")))
        if use_pyright:
            to = [r["pyright"]["edits"]["timeouts"] for r in runs]
            nv = [r["pyright"]["edits"]["without_version"] for r in runs]
            print("\npyright: %s edits without a publishDiagnostics within %.0f s (counted as %.0f s); %s publishes without a version"
                  % (to, args.edit_timeout, args.edit_timeout, nv))
        out = {
            "machine": m, "node": node_version(), "pyright_version": pyright_version, "denpex": denpex,
            "workload": {"python_lines": PY_LINES, "python_bytes": len(py_text), "edits": len(edits),
                         "log_lines": LOG_LINES, "log_bytes": len(log_text)},
            "targets": TARGETS, "summary": summary, "runs": runs,
        }
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
        print("\nwrote %s" % args.out)
    finally:
        shutil.rmtree(ws, ignore_errors=True)


if __name__ == "__main__":
    main()
