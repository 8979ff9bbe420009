#!/bin/bash
# Re-run the jobs of set 49 (one at a time).  cd bench/causality/heldout49 && bash jobs/run.sh [4901 ...]
# Outputs overwrite the case files/folders in the set folder.
set -u
cd "$(dirname "$0")/.."
SET=$PWD
cases=("$@"); [ ${#cases[@]} -eq 0 ] && cases=(4901 4902 4903 4904 4905 4906)
for c in "${cases[@]}"; do
  case $c in
    4901) bash jobs/run_4901.sh "$SET/4901-feat-stats-sync-torchrun-tee.log" ;;
    4902) rm -rf "$SET/4902-lm-shards-torchrun-logdir"; bash jobs/run_4902.sh "$SET/4902-lm-shards-torchrun-logdir" ;;
    4903) rm -rf "$SET/4903-intent-loader-shell-files"; bash jobs/run_4903.sh "$SET/4903-intent-loader-shell-files" ;;
    4904) bash jobs/run_4904.sh "$SET/4904-ctr-launch-console.log" ;;
    4905) bash jobs/run_4905.sh "$SET/4905-seqenc-spawn-logging.log" ;;
    4906) rm -rf "$SET/4906-ranker-torchrun-logdir"; bash jobs/run_4906.sh "$SET/4906-ranker-torchrun-logdir" ;;
    *) echo "unknown case $c" >&2 ;;
  esac
done
