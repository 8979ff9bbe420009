#!/usr/bin/env bash
# "Nothing is uploaded, ever", checked at run time: every mode of denpex runs under
# `strace -f -e trace=network` (the child of `denpex run` included) and any network system call
# (socket, connect, sendto, ...) fails the test. The static check (check_no_network.sh) proves the
# binary imports no networking function; this one proves no mode reaches the network some other way.
# Usage: strace_modes.sh DENPEX SRC_DIR [WRAPPER]: with WRAPPER, each command runs as
# `WRAPPER DENPEX ARGS` (net_probe_wrapper.sh: the test of this test). Skips (77) without strace,
# except under CI=true.
set -uo pipefail
src=$2
bin=("$1")
[ $# -ge 3 ] && bin=("$3" "$1")
if ! command -v strace >/dev/null; then
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: strace not found; under CI=true this test must run: apt-get install strace (scripts/test.sh does)" >&2
    exit 1
  fi
  echo "SKIP: strace not found (apt-get install strace)" >&2
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# strace may be refused (no ptrace in some containers): prove it traces at all before judging.
if ! strace -f -qq -e trace=network -o "$work/probe" bash -c 'exec 3<>/dev/tcp/127.0.0.1/9; true'  2>/dev/null ||
   ! grep -q 'socket(' "$work/probe"; then
  echo "FAIL: strace did not record a probe's socket() call; cannot judge" >&2
  exit 1
fi

fail=0
trace() {  # name, stdin file, command...
  local name=$1 input=$2
  shift 2
  strace -f -qq -e trace=network -o "$work/$name.trace" "$@" <"$input" >"$work/$name.out" 2>&1
  # Lines of the trace other than signals (`--- SIG...`) and exits (`+++`) are network calls.
  local calls
  calls=$(grep -vE '^[0-9]+ +(---|\+\+\+)' "$work/$name.trace" | grep -vE "${local_ipc:-^$}" || true)
  if [ -n "$calls" ]; then
    echo "FAIL: denpex $name made network calls:" >&2
    echo "$calls" >&2
    fail=1
  else
    echo "ok: $name ($(wc -l <"$work/$name.out") lines of output, no network call)"
  fi
}

log="$src/examples/oom-cascade"
cp -r "$src/tests/fixtures/python" "$work/py"
trace diagnose /dev/null "${bin[@]}" diagnose --format json "$log"
trace diagnose-stdin "$src/tests/fixtures/logs/single-oom.log" "${bin[@]}" diagnose -
trace check /dev/null "${bin[@]}" check --no-config "$work/py"
trace check-fix /dev/null "${bin[@]}" check --no-config --fix --unsafe-fixes "$work/py"
trace run /dev/null "${bin[@]}" run -- sh -c 'echo "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"; exit 1'
trace triage /dev/null "${bin[@]}" triage -j 2 "$src/tests/fixtures/logs/multirank"
# The evidence probes run the machine's own tools (python3 importing torch, journalctl, dmesg).
# glibc's name service asks the local nscd over a Unix socket when a program looks up a user:
# local IPC that never leaves the machine, allowed for this mode only; any other socket fails it.
local_ipc='^[0-9]+ +(socket\(AF_UNIX,|connect\([0-9]+, \{sa_family=AF_UNIX,)' \
  trace evidence /dev/null "${bin[@]}" evidence --out "$work/evidence" --timeout 30
trace diagnose-evidence /dev/null "${bin[@]}" diagnose --evidence "$work/evidence" "$log"
trace explain /dev/null "${bin[@]}" explain cuda-oom
trace signatures /dev/null "${bin[@]}" signatures list

# A scripted language-server session: initialize, open a Python file and a log, hover, ask for
# code actions, run the diagnose command, shut down.
py_uri="file://$work/py/checkpoint_use_reentrant_true.py"
frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
json_text() { python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()))' "$1"; }
{
  frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file://'"$work"'","capabilities":{}}}'
  frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"'"$py_uri"'","languageId":"python","version":1,"text":'"$(json_text "$work/py/checkpoint_use_reentrant_true.py")"'}}}'
  frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://'"$work"'/train.log","languageId":"log","version":1,"text":'"$(json_text "$src/tests/fixtures/logs/single-oom.log")"'}}}'
  frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"'"$py_uri"'"},"position":{"line":3,"character":40}}}'
  frame '{"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"'"$py_uri"'"},"range":{"start":{"line":0,"character":0},"end":{"line":20,"character":0}},"context":{"diagnostics":[]}}}'
  frame '{"jsonrpc":"2.0","id":4,"method":"workspace/executeCommand","params":{"command":"denpex.diagnose","arguments":[{"text":"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"}]}}'
  frame '{"jsonrpc":"2.0","id":5,"method":"workspace/executeCommand","params":{"command":"denpex.checkWorkspace","arguments":[]}}'
  frame '{"jsonrpc":"2.0","id":6,"method":"shutdown"}'
  frame '{"jsonrpc":"2.0","method":"exit"}'
} >"$work/session.in"
trace lsp "$work/session.in" "${bin[@]}" lsp --threads 2
if ! grep -q '"id":4' "$work/lsp.out" || ! grep -q '"id":6' "$work/lsp.out"; then
  echo "FAIL: the scripted LSP session did not complete (no answer to the diagnose command or shutdown)" >&2
  head -c 2000 "$work/lsp.out" >&2
  fail=1
fi
exit $fail
