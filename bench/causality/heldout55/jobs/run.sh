#!/bin/bash
# re-runs the jobs of held-out set 55: cd bench/causality/heldout55 && bash jobs/run.sh [5501 ...]
set -u
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1 DATA_DIR=/tmp/hx55/data
PY=/usr/bin/python3
J=jobs/train.py
prep() {
  mkdir -p $DATA_DIR
  $PY - <<'PYEOF'
import torch, struct
for r in range(4):
    torch.save(torch.randn(50,16), f"/tmp/hx55/data/val-{r:02d}.pt")
    with open(f"/tmp/hx55/data/feat-{r:02d}.bin","wb") as f:
        f.write(struct.pack("<4sQ", b"FEAT", 640) + b"\0"*64)
PYEOF
  rm -f $DATA_DIR/val-03.pt; printf 'FEAT\x80\x02' > $DATA_DIR/feat-03.bin
}
prep
cases="${@:-5501 5502 5503 5504 5505 5506}"
for c in $cases; do case $c in
5501) nice -n 15 timeout 120 $PY jobs/trun.py --module torch.distributed.launch --use_env --nproc_per_node 4 --master_port 30601 $J --case lrsched > 5501-launch-use-env-warmup.log 2>&1 ;;
5502) bash jobs/launch_stdbuf_tee.sh 5502-stdbuf-tee-shard-sync.log ;;
5503) bash jobs/launch_pidlog.sh 5503-pid-logging-val-split ;;
5504) mkdir -p 5504-torchrun-c10d-nested-collate; nice -n 15 timeout 120 $PY jobs/trun.py --redirects 2 --log_dir 5504-torchrun-c10d-nested-collate/logs --nnodes 1 --nproc_per_node 3 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:30604 $J --case collate > 5504-torchrun-c10d-nested-collate/console.out 2>&1 ;;
5505) bash jobs/launch_two_nodes.sh 5505-two-node-feature-header ;;
5506) bash jobs/launch_sigint_group.sh 5506-launch-local-rank-interrupted.log ;;
esac; done
