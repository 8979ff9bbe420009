#!/bin/bash
# usage: run.sh CASE  (run from jobs/)
cd "$(dirname "$0")"; O=..; export OMP_NUM_THREADS=1
loop() { # fault fmt bad port out
  ( export MASTER_PORT=$3; for r in 0 1 2 3; do (nice -n 15 timeout 120 /usr/bin/python3 w.py $r $1 plain $2 2>&1 | sed "s/^/[worker $r] /") & done; wait ) > $4 2>&1; }
case $1 in
 3101) loop badtoken 2 29601 $O/3101-bashloop-embed-bad-token.log ;;
 3102) ( export MASTER_PORT=29602; script -q -c 'for r in 0 1 2 3; do nice -n 15 timeout 120 /usr/bin/python3 w.py $r nan plain 1 & done; wait' /dev/null ) > $O/3102-script-nan-loss-raise.log 2>&1 ;;
 3103) mkdir -p $O/3103-jsonl-ckpt-proc-write; ( export MASTER_PORT=29603; for r in 0 1 2 3; do nice -n 15 timeout 120 /usr/bin/python3 w.py $r ckpt json 0 > $O/3103-jsonl-ckpt-proc-write/rank$r.jsonl 2>&1 & done; wait ) ;;
 3104) mkdir -p $O/3104-loguru-warnings-healthy; ( export MASTER_PORT=29604; for r in 0 1 2 3; do nice -n 15 timeout 120 /usr/bin/python3 w.py $r warn loguru > $O/3104-loguru-warnings-healthy/rank$r.log 2>&1 & done; wait ) ;;
esac
