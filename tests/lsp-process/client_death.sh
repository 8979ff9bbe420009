#!/usr/bin/env bash
# `denpex lsp` must exit when the client named in initialize's processId dies, even though its
# stdin stays open (an editor killed with SIGKILL leaves orphaned pipes behind).
set -u
denpex=$1
sleep 60 & victim=$!
body='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":'$victim',"rootUri":null,"capabilities":{}}}'
# This script holds the writer side of the server's stdin open: only the watch can end it.
rm -f to-server && mkfifo to-server
"$denpex" lsp <to-server >/dev/null 2>server.err &
server=$!
exec 3>to-server
printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body" >&3
sleep 1
kill -0 "$server" 2>/dev/null || { echo "FAIL: the server exited before its client died"; cat server.err; exit 1; }
kill -9 "$victim"
start=$SECONDS
wait "$victim" 2>/dev/null
for _ in $(seq 1 50); do
  if ! kill -0 "$server" 2>/dev/null; then
    wait "$server"; rc=$?
    grep -q "client process $victim is gone" server.err || { echo "FAIL: no log line"; cat server.err; exit 1; }
    [ "$rc" -eq 1 ] || { echo "FAIL: exit code $rc, expected 1"; exit 1; }
    echo "ok: the server exited $((SECONDS - start)) s after its client died, code 1"
    exit 0
  fi
  sleep 0.1
done
echo "FAIL: the server still runs 5 s after its client died"
kill "$server" 2>/dev/null
exit 1
