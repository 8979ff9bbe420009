#!/usr/bin/env bash
# Regenerates docs/encyclopedia from signatures/ (the docs.encyclopedia_fresh test checks it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cmake --build build --target denpex >/dev/null
rm -rf docs/encyclopedia
build/denpex signatures docs docs/encyclopedia
