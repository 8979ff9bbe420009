# One rank of a 4-rank gloo job that fails (or not) the way SCENARIO says. Launched by mr_launch.py.
import logging
import os
import signal
import sys
import time
import warnings
from datetime import timedelta

import torch
import torch.distributed as dist

scenario = os.environ["SCENARIO"]
rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stdout)
log = logging.getLogger("train")

if scenario == "startup_failure" and rank == 3:
    os.environ["MASTER_PORT"] = "1"  # nothing listens there: this rank cannot reach the store

dist.init_process_group("gloo", timeout=timedelta(seconds=6))
model = torch.nn.Linear(4, 4)
if scenario == "size_mismatch":
    # One rank builds its model from another config: its flattened gradients are longer.
    hidden = 40 if rank == 2 else 32
    model = torch.nn.Sequential(torch.nn.Linear(4, hidden), torch.nn.Linear(hidden, 4))
    log.info("rank %d: model built: %d parameters", rank, sum(p.numel() for p in model.parameters()))
emb = torch.nn.Embedding(10, 4)
x = torch.ones(3, 4)


def batch_for(step):
    batch = {"input_ids": torch.tensor([1, 2, 3]), "labels": torch.tensor([0, 1, 2])}
    if scenario == "unknown_exception" and rank == 2 and step == 2:
        del batch["labels"]  # a malformed sample: the user's code expects the key
    return batch


for step in range(4):
    log.info("step %d rank %d", step, rank)
    batch = batch_for(step)
    labels = batch["labels"]
    if scenario == "nan_raise":
        loss = model(x).sum() * (float("nan") if rank == 0 and step == 2 else 1.0)
        if torch.isnan(loss):
            raise RuntimeError(f"Loss is NaN at step {step}, stopping training")
    if scenario == "sigkill" and rank == 1 and step == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    if scenario == "hang" and rank == 3 and step == 2:
        time.sleep(120)  # stuck (a deadlock, a slow filesystem): the launcher ends it
    if scenario == "two_failures" and step == 2:
        if rank == 2:
            raise ValueError(f"sample {step * 8 + rank} has 0 tokens after filtering")
        if rank == 0:
            time.sleep(1.5)
            log.info("step %d rank %d: checking the batch", step, rank)
            assert batch["input_ids"].numel() > 3, "batch too small"  # fails too, but later
    if scenario == "healthy_warnings" and step == 1:
        from torch.utils.checkpoint import checkpoint
        checkpoint(model, x)  # inputs need no grad: a warning, not a failure
        warnings.warn("torch.distributed._all_gather_base is a private function and will be deprecated", UserWarning)
        # A [3, 4] against [3, 1] regression loss: torch warns, broadcasts, and the run goes on.
        torch.nn.functional.mse_loss(model(x)[:, :1], x[:, 0])
    if scenario == "sigint" and step == 2:
        time.sleep(60)  # the user presses Ctrl-C while every rank waits here
    if scenario == "stall" and rank == 1 and step == 2:
        log.info("step %d rank %d: writing an eval sample to slow storage", step, rank)
        time.sleep(9)  # longer than the peers' timeout: they give up and exit, then it goes on
    if scenario == "logged_exception" and rank == 2 and step == 2:
        try:
            {"input_ids": 1}["attention_mask"]
        except KeyError:
            # The job's own logger, as most training scripts report a failure: message, traceback.
            log.exception("rank %d: step %d failed", rank, step)
            sys.exit(1)
    if scenario == "sigint_one" and rank == 1 and step == 2:
        try:
            os.kill(os.getpid(), signal.SIGINT)  # someone's `kill -INT` of this one worker
            time.sleep(5)
        except KeyboardInterrupt:
            log.warning("rank %d: interrupted by user (KeyboardInterrupt), exiting", rank)
            raise
    if scenario == "size_mismatch":
        dist.all_reduce(torch.cat([p.detach().flatten() for p in model.parameters()]))
    if scenario == "dataloader_exit" and rank == 3 and step == 2:
        class Shard(torch.utils.data.Dataset):
            def __len__(self):
                return 8

            def __getitem__(self, i):
                os._exit(1)  # the worker dies without a word (as the OOM killer leaves it)

        for _ in torch.utils.data.DataLoader(Shard(), num_workers=1):
            pass
    if scenario == "shard_missing" and step == 2:
        # Each rank's DataLoader workers read that rank's shard index; rank 2's was never written.
        import tempfile
        shards = tempfile.mkdtemp(prefix="denpex-shards-")
        if rank != 2:
            open(os.path.join(shards, f"rank{rank}.idx"), "w").write("0 8\n")

        def open_index(worker):
            with open(os.path.join(shards, f"rank{rank}.idx")) as f:
                f.read()

        for _ in torch.utils.data.DataLoader(list(range(8)), num_workers=1, worker_init_fn=open_index):
            pass
    dist.all_reduce(x)
    time.sleep(0.3)
log.info("rank %d done", rank)
dist.destroy_process_group()
