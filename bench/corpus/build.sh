#!/usr/bin/env bash
# Rebuilds the judged corpus (bench/corpus/repos/, git-ignored) from manifest.txt: for each
# "owner/name commit" line, the .py files of that commit, taken from the local mirror that the
# `fetch` tool made (/work/.mirror/owner+name/repo, or $DENPEX_MIRRORS/owner+name/repo), or else
# cloned from GitHub. Never commit the output.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/repos}"
mirrors="${DENPEX_MIRRORS:-/work/.mirror}"
rm -rf "$out"; mkdir -p "$out"
while read -r repo commit; do
  [[ -z "$repo" || "$repo" == \#* ]] && continue
  dest="$out/${repo//\//+}"
  gitdir="$mirrors/${repo//\//+}/repo"
  if [[ ! -d "$gitdir" ]]; then
    gitdir="$out/.git-${repo//\//+}"
    git clone --bare --filter=blob:none "https://github.com/$repo" "$gitdir" >&2
  fi
  mkdir -p "$dest"
  git --git-dir="$gitdir" archive "$commit" -- $(git --git-dir="$gitdir" ls-tree -r --name-only "$commit" | grep '\.py$' | tr '\n' ' ') \
    2>/dev/null | tar -x -C "$dest"   # mirrors may lack large non-.py blobs; only .py are read
  echo "$repo $commit: $(find "$dest" -name '*.py' | wc -l) files" >&2
done < "$here/manifest.txt"
