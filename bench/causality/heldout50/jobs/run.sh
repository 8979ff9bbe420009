#!/bin/bash
# Re-run the jobs of set 50.  usage: cd bench/causality/heldout50 && bash jobs/run.sh [5001 ...]
# Writes into the set folder (overwrites the case files). One job at a time.
set -u
cd "$(dirname "$0")/.."
cases=${*:-5001 5002 5003 5004 5005 5006 5007}
for c in $cases; do
  case $c in
    5001) rm -rf 5001-vocab-jsonl-logger-exception; bash jobs/run_5001.sh 5001-vocab-jsonl-logger-exception ;;
    5002) bash jobs/run_ansi.sh 5002-colour-console-typescript.log none 30308 ;;
    5003) bash jobs/run_5003.sh 5003-spawn-progress-bar-stuck-shard-fetch.log ;;
    5004) bash jobs/run_5004.sh 5004-bash-launcher-pid-only-rss-watchdog.log ;;
    5005) rm -rf 5005-two-node-iso-clock-skew; bash jobs/run_5005.sh 5005-two-node-iso-clock-skew ;;
    5006) bash jobs/run_ansi.sh 5006-colour-console-keyerror-typescript.log rank1 30307 ;;
    5007) rm -rf 5007-two-node-iso-clock-skew-cancelled; bash jobs/run_5007.sh 5007-two-node-iso-clock-skew-cancelled ;;
    *) echo "unknown case $c" ;;
  esac
done
