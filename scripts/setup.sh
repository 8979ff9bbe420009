#!/usr/bin/env bash
# One-stop set-up on Debian 12: installs the missing apt packages, fetches the pinned tree-sitter
# tarballs and builds the release binary into build/. Quick and silent when everything is there.
# Usage: scripts/setup.sh [extra apt packages...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(build-essential cmake pkg-config ca-certificates curl nlohmann-json3-dev libre2-dev
          libboost-dev libboost-filesystem-dev doctest-dev libyaml-cpp-dev libtomlplusplus-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

scripts/fetch-deps.sh >/dev/null
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
log=build/setup-build.log
if ! cmake --build build -j"$(nproc)" --target denpex >"$log" 2>&1; then
  grep -E '(error|warning):' "$log" | head -40 >&2 || tail -40 "$log" >&2
  echo "setup: the build failed; the full log is $log" >&2
  exit 1
fi
