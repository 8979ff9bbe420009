#!/bin/sh
# Run one editor suite: tests/editors/run.sh neovim|emacs DENPEX_BINARY
# Copies the test files into a fresh temp dir (a quick fix writes the file), runs the editor
# headless with a bounded wait, and passes or fails by its exit code. A missing editor skips
# (exit 77) on a developer machine and fails under CI=true.
set -u
editor=$1
bin=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case $editor in
  neovim) prog=nvim; pkg=neovim ;;
  emacs) prog=emacs; pkg="emacs-nox elpa-eglot" ;;
  *) echo "usage: $0 neovim|emacs DENPEX_BINARY" >&2; exit 2 ;;
esac
missing=""
command -v "$prog" >/dev/null 2>&1 || missing=$prog
if [ "$editor" = emacs ] && [ -z "$missing" ] && ! ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 \
   && ! emacs --batch -Q --eval '(progn (require (quote package)) (package-initialize) (require (quote eglot)))' >/dev/null 2>&1; then
  missing=eglot
fi
if [ -n "$missing" ]; then
  case "${CI:-}" in [Tt][Rr][Uu][Ee]|1|[Yy][Ee][Ss])
    echo "FAIL: $missing was not found; under CI=true the $editor suite must run, not skip: apt-get install --no-install-recommends $pkg (scripts/test.sh does)" >&2
    exit 1;;
  esac
  echo "SKIP: $missing was not found (apt-get install --no-install-recommends $pkg)"
  exit 77
fi
[ -x "$bin" ] || { echo "FAIL: no denpex binary at $bin" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/denpex-$editor.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$root/tests/protocol/workspace/train.py" "$root/tests/protocol/workspace/model.py" \
   "$root/examples/oom-cascade/train.log" "$work/"
export DENPEX_BIN=$bin DENPEX_WORK=$work
# A private HOME/XDG tree: no user config, shada, packages or state leak in or out.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
       XDG_STATE_HOME="$work/home/.local/state" XDG_CACHE_HOME="$work/home/.cache"
mkdir -p "$HOME"
# "Nothing is uploaded" holds for the editor clients too: the main session of each editor runs
# under `strace -f -e trace=network` (the editor, its plugin and the server it starts), and any
# socket or connection other than local Unix-domain IPC (the editor's own RPC socket) fails it.
tracer=""
if command -v strace >/dev/null 2>&1; then
  tracer="strace -f -qq -e trace=network -o $work/network.trace"
else
  case "${CI:-}" in [Tt][Rr][Uu][Ee]|1|[Yy][Ee][Ss])
    echo "FAIL: strace was not found; under CI=true the editors' network check must run (scripts/test.sh installs it)" >&2
    exit 1;;
  esac
  echo "note: strace not found; the editors' no-network check is skipped"
fi
network_check() {
  [ -n "$tracer" ] || return 0
  inet=$(grep -vE '^[0-9]+ +(---|\+\+\+)' "$work/network.trace" | grep -vE 'AF_UNIX|AF_LOCAL' \
         | grep -E 'socket\(|connect\(|sendto\(|sendmsg\(|bind\(' || true)
  if [ -n "$inet" ]; then
    echo "FAIL: the $editor session made network calls other than local IPC:" >&2
    echo "$inet" | head -20 >&2
    return 1
  fi
  echo "ok: the $editor session made no network call ($(wc -l <"$work/network.trace") traced lines, all local IPC)"
}
case $editor in
  neovim)
    export DENPEX_PLUGIN="$root/editors/neovim"
    # g:loaded_python3_provider=0: Neovim's own python3 provider probe costs 2.5 s on the first
    # Python buffer here, unrelated to denpex.
    noprobe="let g:loaded_python3_provider=0"
    cd "$work" && timeout 120 $tracer nvim --headless --clean --cmd "$noprobe" -c "luafile $here/neovim_test.lua"
    rc=$?
    [ $rc -eq 0 ] && { network_check || rc=1; }
    if [ $rc -eq 0 ]; then
      cp "$root/tests/protocol/workspace/train.py" "$work/options.py"
      cp "$root/examples/oom-cascade/train.log" "$work/job.stdout"
      timeout 60 nvim --headless --clean --cmd "$noprobe" -c "luafile $here/neovim_options_test.lua"
      rc=$?
    fi
    cp "$root/tests/protocol/workspace/train.py" "$work/compat.py"
    for compat in start config; do
      [ $rc -eq 0 ] || break
      DENPEX_COMPAT=$compat timeout 60 nvim --headless --clean --cmd "$noprobe" -c "luafile $here/neovim_compat_test.lua"
      rc=$?
    done ;;
  emacs)
    export DENPEX_EL="$root/editors/emacs"
    cp "$root/tests/protocol/workspace/train.py" "$work/options.py"
    cd "$work" && timeout 120 $tracer emacs --batch -Q -l "$here/emacs_test.el"
    rc=$?
    [ $rc -eq 0 ] && { network_check || rc=1; } ;;
esac
[ $rc -eq 124 ] && echo "FAIL: $editor did not finish within 120 s" >&2
echo "$editor suite: exit $rc"
[ $rc -eq 0 ] || exit 1
exit 0
