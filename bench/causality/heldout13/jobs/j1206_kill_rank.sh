#!/bin/bash
# plays the part of the host's OOM-killer: SIGKILLs the rank-3 worker a few seconds into training
R=${1:-3}; DELAY=${2:-5}
for i in $(seq 1 300); do [ -s pids/rank$R.pid ] && break; sleep 0.1; done
sleep $DELAY
kill -9 "$(cat pids/rank$R.pid)"
