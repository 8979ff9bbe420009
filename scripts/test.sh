#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: set-up, release build and tests, then the
# same tests under AddressSanitizer + UndefinedBehaviorSanitizer. Prints how long each phase took.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
phase() { echo "test.sh: $1 done in $((SECONDS - start)) s"; start=$SECONDS; }
start=$SECONDS

# Node.js drives the vscode-jsonrpc suite; machines that already have one keep theirs.
extra=()
command -v node >/dev/null && command -v npm >/dev/null || extra=(nodejs npm)
# The real editors for tests/editors (headless Neovim, Emacs + eglot); setup.sh installs only what is missing.
extra+=(neovim emacs-nox elpa-eglot)
# Chromium (and libkrb5-dev for code-server's native module) drive the VS Code tests (tests/editors-vscode).
extra+=(chromium libkrb5-dev)
# strace runs every mode in tests/privacy/strace_modes.sh (no network call at run time).
extra+=(strace)
# clang and libFuzzer's runtime build the fuzz targets (tests/fuzz, scripts/fuzz.sh).
extra+=(clang libclang-rt-14-dev)
# A real single-node Slurm (slurmctld, slurmd, munged) runs tests/slurm's job array.
extra+=(slurm-wlm munge)
scripts/setup.sh python3-torch python3-yaml "${extra[@]}"
scripts/fetch-deps.sh --test-tools >/dev/null
jobs=$(nproc)
phase "set-up and release binary"

cmake --build build -j"$jobs"
phase "release build"
(cd build && ctest --output-on-failure -j"$jobs")
phase "release tests"

[ -f build-asan/CMakeCache.txt ] || cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DDENPEX_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
phase "sanitizer build"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j"$jobs" -LE no-sanitizer)
phase "sanitizer tests"

# The language server's threads (worker pool, writer, scheduler) under ThreadSanitizer.
[ -f build-tsan/CMakeCache.txt ] || cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDENPEX_TSAN=ON >/dev/null
cmake --build build-tsan -j"$jobs" --target denpex_unit_tests protocol_runner
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --output-on-failure -j"$jobs" -R '^(lsp|protocol\.)' -LE no-sanitizer)
phase "thread sanitizer tests"

# Fuzzing smoke: every libFuzzer target for a short while from the fixtures (scripts/fuzz.sh runs
# them long), then every saved regression input once.
DENPEX_FUZZ_SEED=${DENPEX_FUZZ_SEED:-1} scripts/fuzz.sh "${DENPEX_FUZZ_SECONDS:-20}"
(cd build-fuzz && ctest --output-on-failure -R '^fuzz\.')
phase "fuzzing"
echo "test.sh: all tests passed (release, address/UB sanitizer, thread sanitizer and fuzzing builds)"
