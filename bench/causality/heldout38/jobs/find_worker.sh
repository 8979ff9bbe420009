#!/bin/bash
# find_worker.sh SCRIPT GLOBAL_RANK -> pid of the torchrun worker running SCRIPT with RANK=GLOBAL_RANK
for p in $(pgrep -f "python3 -u .*$1|python3 .*jobs/$1"); do
  if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$2"; then
    if ! tr '\0' ' ' < /proc/$p/cmdline | grep -q trun.py; then echo $p; fi
  fi
done
