#!/bin/bash
# stand-in for a node preemption watcher: after 9 s it SIGTERMs the process of rank 3 only
sleep 9
kill -TERM "$(cat /tmp/hx53/pids/rank3.pid)"
