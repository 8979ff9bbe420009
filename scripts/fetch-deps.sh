#!/usr/bin/env bash
# Fetches pinned npm tarballs, checks their sha256 and unpacks them into .deps/ (git-ignored):
# the tree-sitter runtime and Python grammar for the build, and with `--test-tools` Microsoft's
# SARIF Multitool, which the tests use to validate `denpex check --output-format sarif`.
# Nothing third-party is ever committed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${DENPEX_DEPS_DIR:-$root/.deps}
mkdir -p "$dest"

# name version sha256
pins=(
  "tree-sitter 0.25.1 07aeba8dd71630e7e72b2d4ca3bd2680c3471824100cc5ebff44e78a6ed0b6d3"
  "tree-sitter-python 0.25.0 63b76b3fa8181fd79eaad4abcdb21e2babcb504dbfc7710a89934fa456d26096"
)
if [ "${1:-}" = "--test-tools" ]; then
  pins+=("@microsoft/sarif-multitool-linux 5.7.0 27d8e3e96dde578a23b7c45035b8d741fece5731e2700aa068015b8c44d1514e")
fi

for pin in "${pins[@]}"; do
  read -r name version sum <<<"$pin"
  # npm names the tarball of @scope/pkg "scope-pkg-VERSION.tgz"
  base=$(echo "${name#@}" | tr / -)
  out="$dest/$base-$version"
  [ -f "$out/.verified" ] && continue
  tgz="$dest/$base-$version.tgz"
  if [ ! -f "$tgz" ] || ! echo "$sum  $tgz" | sha256sum -c --status; then
    rm -f "$tgz"
    if command -v npm >/dev/null 2>&1; then
      (cd "$dest" && npm pack --silent "$name@$version" >/dev/null)
    elif command -v curl >/dev/null 2>&1; then
      curl -fsSL -o "$tgz" "https://registry.npmjs.org/$name/-/${name##*/}-$version.tgz"
    else
      echo "fetch-deps: need npm or curl to fetch $name@$version (apt-get install npm)" >&2
      exit 2
    fi
  fi
  if ! echo "$sum  $tgz" | sha256sum -c --status; then
    echo "fetch-deps: checksum mismatch for $tgz (expected $sum); refusing to use it" >&2
    rm -f "$tgz"
    exit 2
  fi
  rm -rf "$out" && mkdir -p "$out"
  tar -xzf "$tgz" -C "$out" --strip-components=1
  touch "$out/.verified"
done
echo "$dest"
