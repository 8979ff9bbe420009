# the "object store" mount: a local dir whose sync agent commits the first upload and
# then stalls, so the step-20 upload is never marked committed
mkdir -p remote
: > remote/ckpt_latest.pt.committed
( while [ ! -e remote/ckpt_latest.pt ]; do sleep 0.1; done; rm -f remote/ckpt_latest.pt.committed ) &
