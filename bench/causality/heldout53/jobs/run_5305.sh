#!/bin/bash
# control: 3 ranks, time budget 12 s, clean exit; nohup needs a terminal to write nohup.out, so the
# launcher runs under script(1) with its typescript discarded
cd "$(dirname "$0")/.." || exit 1
D=5305-budget-stop-nohup; rm -rf $D; mkdir -p $D /tmp/hx53
cd $D && script -q -e -c "bash ../jobs/launch_nohup.sh 30505 --mode budget" /dev/null > /dev/null
echo "launcher exit $?"
