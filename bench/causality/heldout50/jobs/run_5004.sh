#!/bin/bash
# usage: run_5004.sh LOGFILE
LOG=$(realpath -m "$1")
nice -n 15 timeout 120 bash "$(dirname "$0")/launch_5004.sh" > "$LOG" 2>&1
echo "exit $?"
