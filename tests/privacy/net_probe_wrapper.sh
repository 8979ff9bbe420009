#!/usr/bin/env bash
# A stand-in for denpex that opens a TCP socket before running the real binary: strace_modes.sh
# must fail on it (the test of the test). Usage: net_probe_wrapper.sh REAL_DENPEX ARGS...
real=$1
shift
exec 3<>/dev/tcp/127.0.0.1/9 2>/dev/null
exec "$real" "$@"
