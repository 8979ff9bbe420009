#!/usr/bin/env bash
# Fetches pinned npm tarballs, checks their sha256 and unpacks them into .deps/ (git-ignored):
# the tree-sitter runtime and Python grammar for the build, and with `--test-tools` Microsoft's
# SARIF Multitool, which the tests use to validate `denpex check --output-format sarif`, and
# vscode-jsonrpc for tests/lsp-node (`npm ci`, into its git-ignored node_modules).
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

# With --test-tools, also vscode-jsonrpc for tests/lsp-node (the LSP driven as VS Code drives it),
# into tests/lsp-node/node_modules (git-ignored), exactly as package-lock.json pins it. Only when
# node_modules is missing or the lock changed since the last install; npm's cache first.
if [ "${1:-}" = "--test-tools" ]; then
  node_dir="$root/tests/lsp-node"
  stamp="$node_dir/node_modules/.denpex-lock.sha256"
  lock_sum=$(sha256sum "$node_dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
    if command -v npm >/dev/null 2>&1; then
      if ! log=$(npm ci --prefix "$node_dir" --prefer-offline --no-audit --no-fund --loglevel=error 2>&1); then
        echo "$log" >&2
        echo "fetch-deps: npm ci --prefix tests/lsp-node failed (offline with an empty npm cache?)" >&2
        exit 2
      fi
      echo "$lock_sum" >"$stamp"
    else
      echo "fetch-deps: npm not found; tests/lsp-node is not installed and lsp_node.vscode_jsonrpc will skip (apt-get install nodejs npm)" >&2
    fi
  fi
fi
# With --test-tools, also the real-VS-Code suite's tools (Node 24, code-server, playwright-core and
# the extension's npm packages), pinned and cached; quiet and quick when they are already there.
if [ "${1:-}" = "--test-tools" ]; then
  "$root/tests/editors-vscode/fetch-tools.sh" >&2
fi
echo "$dest"
