# 4803: python multiprocessing launcher (spawn context), one combined stdout stream.
# Each worker applies its slot's address-space limit (what `ulimit -v` does) from SLOT_LIMITS_KB.
import os, sys, time, resource, logging
import multiprocessing as pymp
from datetime import timedelta

WORLD = 4
SLOT_LIMITS_KB = {0: None, 1: None, 2: None, 3: 850_000}   # slot 3 is a smaller "preemptible" slot

def vmsize_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1])

def run(rank):
    lim = SLOT_LIMITS_KB[rank]
    if lim:
        resource.setrlimit(resource.RLIMIT_AS, (lim * 1024, lim * 1024))
    import torch, torch.nn as nn, torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                        format="%(asctime)s %(processName)s %(levelname)s %(message)s")
    log = logging.getLogger("seqtag")
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30053", rank=rank, world_size=WORLD,
                            timeout=timedelta(seconds=25))
    log.info("joined group, vm=%d kB, as limit=%s", vmsize_kb(), f"{lim} kB" if lim else "unlimited")
    torch.manual_seed(0)
    emb = nn.EmbeddingBag(5000, 32)
    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 12)))
    opt = torch.optim.SGD(list(model.parameters()) + list(emb.parameters()), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(2):
        for step in range(1, 21):
            tok = torch.randint(0, 5000, (32, 20), generator=g)
            y = torch.randint(0, 12, (32,), generator=g)
            loss = nn.functional.cross_entropy(model(emb(tok)), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 10 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.03)
        # validation: score every tag sequence against the full label-transition table
        n_val = 2400
        log.info("epoch %d validation: allocating transition scores for %d sequences", epoch, n_val)
        scores = torch.empty(n_val, 12, 12, 128)
        scores.zero_()
        acc = torch.tensor([float(scores.sum()) * 0 + 0.5])
        dist.all_reduce(acc)
        log.info("epoch %d val acc %.3f", epoch, acc.item() / WORLD)
        del scores
    dist.destroy_process_group()

if __name__ == "__main__":
    os.environ["OMP_NUM_THREADS"] = "1"
    ctx = pymp.get_context("spawn")
    procs = [ctx.Process(target=run, args=(r,), name=f"trainer-{r}") for r in range(WORLD)]
    for p in procs: p.start()
    for p in procs: p.join()
    for p in procs:
        print(f"launcher: {p.name} pid={p.pid} exitcode={p.exitcode}", flush=True)
    sys.exit(max(abs(p.exitcode or 0) for p in procs) and 1)
