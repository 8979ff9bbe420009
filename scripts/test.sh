#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: set-up, release build and tests, then the
# same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh python3-torch python3-yaml
scripts/fetch-deps.sh --test-tools >/dev/null
jobs=$(nproc)

cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")

[ -f build-asan/CMakeCache.txt ] || cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DDENPEX_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j"$jobs" -LE no-sanitizer)
echo "test.sh: all tests passed (release and sanitizer builds)"
