# Rank 0 saves a full-model checkpoint with torch.save(model) at epoch end while the
# others wait in a barrier. The model holds a lambda activation, so pickling fails on
# rank 0. Python logging with timestamps; output piped through an awk timestamper.
import os, datetime, logging
import torch, torch.distributed as dist

logging.basicConfig(level=logging.INFO,
                    format="%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s")
log = logging.getLogger("trainer")

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(10, 10)
        self.act = lambda t: torch.nn.functional.gelu(t)
        self.fc2 = torch.nn.Linear(10, 1)
    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank()
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(2):
        for step in range(10):
            loss = model(torch.randn(16, 10)).pow(2).mean()
            opt.zero_grad(); loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad); p.grad /= dist.get_world_size()
            opt.step()
        log.info("rank %d epoch %d done loss=%.4f", rank, epoch, loss.item())
        if rank == 0:
            os.makedirs("/tmp/helper29/ckpt2908", exist_ok=True)
            log.info("saving checkpoint for epoch %d", epoch)
            torch.save(model, f"/tmp/helper29/ckpt2908/model_e{epoch}.pt")
        dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
