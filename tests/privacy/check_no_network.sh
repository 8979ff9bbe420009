#!/usr/bin/env bash
# The product promise "nothing is uploaded, ever" as a test: the binary imports no networking
# function, and no source includes a networking header. Usage: check_no_network.sh DENPEX SRC_DIR
set -euo pipefail
bin=$1
src=$2
imports=$(nm -D --undefined-only "$bin" | awk '{print $2}' | sed 's/@.*//')
# Guard against a vacuous pass: a working nm lists the file functions denpex certainly uses.
if ! grep -qx 'read' <<<"$imports" || ! grep -qx 'write' <<<"$imports"; then
  echo "FAIL: nm listed no expected imports (read, write); cannot judge $bin" >&2
  exit 1
fi
net=$(grep -xE 'socket|socketpair|connect|bind|listen|accept4?|getaddrinfo|getnameinfo|gethostbyname2?(_r)?|sendto|recvfrom|sendmsg|recvmsg|inet_(pton|ntop|addr)|curl_.*|SSL_.*' <<<"$imports" || true)
if [ -n "$net" ]; then
  echo "FAIL: $bin imports networking functions:" >&2
  echo "$net" >&2
  exit 1
fi
headers=$(grep -rnE '#include *[<"](sys/socket\.h|netdb\.h|netinet/|arpa/inet\.h|curl/|boost/asio/ip/|boost/beast|openssl/)' \
  "$src/analyzers" "$src/server" || true)
if [ -n "$headers" ]; then
  echo "FAIL: networking headers included:" >&2
  echo "$headers" >&2
  exit 1
fi
echo "PASS: no networking imports in $bin, no networking headers in the sources"
