#!/bin/bash
# container entrypoint of the trainer image
echo "entrypoint: pod=$POD_NAME RANK=$RANK WORLD_SIZE=$WORLD_SIZE MASTER_ADDR=$MASTER_ADDR MASTER_PORT=$MASTER_PORT"
exec nice -n 15 /usr/bin/python3 train.py "$@"
