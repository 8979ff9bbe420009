#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, build-fuzz/) and runs each for SECONDS (default
# 60), seeded from the test fixtures. New interesting inputs go to build-fuzz/corpus/<target>/;
# a crash is written to build-fuzz/crashes/ and the script exits 1: copy the file into
# tests/fuzz/regressions/<target>/ once fixed, so `ctest -R fuzz` keeps it fixed.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: lsp_session log_diagnose python_fix config_entry)
# DENPEX_FUZZ_SEED=N fixes libFuzzer's random seed: the same inputs are tried in the same order, so
# a smoke run in CI explores what it explored on the developer's machine (test.sh sets 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(lsp_session log_diagnose python_fix config_entry)
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDENPEX_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
declare -A seeds=(
  [lsp_session]="tests/fuzz/seeds/lsp_session"
  [log_diagnose]="tests/fixtures/logs examples/oom-cascade"
  [python_fix]="tests/fixtures/python"
  [config_entry]="signatures tests/protocol/workspace-badconfig"
)
mkdir -p build-fuzz/crashes
status=0
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  # libFuzzer reads directories, not trees: the seeds' files are copied in flat.
  for d in ${seeds[$t]}; do
    find "$d" -type f -size -256k | while read -r f; do cp "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"; done
  done
  echo "fuzz: $t for ${seconds}s ($(ls "$corpus" | wc -l) inputs to start)"
  seed=()
  [ -n "${DENPEX_FUZZ_SEED:-}" ] && seed=(-seed="$DENPEX_FUZZ_SEED")
  if ! "build-fuzz/fuzz_$t" "${seed[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/crashes/$t-" "$corpus" tests/fuzz/regressions/$t \
      >"build-fuzz/$t.log" 2>&1; then
    echo "fuzz: $t FAILED; see build-fuzz/$t.log and build-fuzz/crashes/" >&2
    grep -aE "ERROR|SUMMARY|deadly|Test unit written" "build-fuzz/$t.log" | head -5 >&2
    status=1
  fi
  grep -aE "^stat::number_of_executed_units|^stat::peak_rss_mb" "build-fuzz/$t.log" | sed "s/^/fuzz: $t /"
done
exit $status
