#!/bin/bash
# container command: start the four ranks in the background, all writing to the
# container's stdout (collected by the log shipper), and wait for them
for r in 0 1 2 3; do
    RANK=$r WORLD_SIZE=4 MASTER_ADDR=127.0.0.1 MASTER_PORT=$MASTER_PORT nice -n 15 /usr/bin/python3 train.py &
done
wait
