#!/bin/bash
# Runs the four ranks the way they were started by hand in an interactive shell
# (background jobs + wait), inside a pseudo-terminal so bash's job-control
# notices ([1] pid ... / [4]+ Exit 3 ...) are printed as on a real terminal.
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29608 WORLD_SIZE=4
script -q -e -c 'stty -onlcr; bash --norc --noprofile -i -c "for r in 0 1 2 3; do RANK=\$r LOCAL_RANK=\$r /usr/bin/python3 train.py & done; wait"' /dev/null </dev/null
