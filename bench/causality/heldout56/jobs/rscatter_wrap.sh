#!/bin/bash
# per-worker override left in the launch wrapper: local rank 1 gets the sharded-grad flag
[ "$LOCAL_RANK" = 1 ] && export TRAIN_SHARD_GRADS=1
exec /usr/bin/python3 "$(dirname "$0")/train.py" --job rscatter
