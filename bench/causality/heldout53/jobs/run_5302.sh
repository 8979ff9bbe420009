#!/bin/bash
# torchrun --tee 1 (prefixes [defaultN]:; 3/0 crash this torch 1.13 + Python 3.11 build, see README);
# the trainer sends its stderr to stdout (--merge-stderr), whole console piped through tsfilter.py
cd "$(dirname "$0")/.." || exit 1
rm -rf /tmp/hx53/5302-logdir; export OMP_NUM_THREADS=1
nice -n 15 timeout 120 /usr/bin/python3 -m torch.distributed.run --nproc_per_node 4 --master_port 30502 --redirects 1 --tee 1 --log_dir /tmp/hx53/5302-logdir \
  jobs/trainer.py --mode batchcheck --merge-stderr 2>&1 | /usr/bin/python3 jobs/tsfilter.py > 5302-grad-accum-plan-torchrun-ts.log
