// DPX011: DDP told to search for unused parameters on every step.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    bool ddp = c.qname == "torch.nn.parallel.DistributedDataParallel" ||
               c.qname == "torch.nn.parallel.distributed.DistributedDataParallel" ||
               c.qname == "lightning.pytorch.strategies.DDPStrategy" ||
               c.qname == "pytorch_lightning.strategies.DDPStrategy";
    if (!ddp) continue;
    const Keyword* k = c.keyword("find_unused_parameters");
    if (!k || m.literal(k->value) != Literal::True) continue;
    r.report(m.range(k->node),
             "`find_unused_parameters=True` makes DDP traverse the autograd graph after every forward pass; keep it "
             "only if some parameters really get no gradient (and consider `static_graph=True`)");
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(ddp_find_unused_parameters){
    "DPX011", "ddp-find-unused-parameters", "", denpex::core::Severity::Info,
    "`DistributedDataParallel(find_unused_parameters=True)`",
    R"(## What it does
Flags `DistributedDataParallel(..., find_unused_parameters=True)` and Lightning's
`DDPStrategy(find_unused_parameters=True)`.

## Why it matters
With the flag on, DDP walks the autograd graph from the outputs after every forward to find
parameters that will not receive gradients. That costs time each step, and it is often left on
after the model changed. When every parameter is used it is pure overhead; DDP warns about it.

Versions: every release from 1.13 on. The `find_unused_parameters` docstring in
`torch/nn/parallel/distributed.py` says DDP traverses the autograd graph from the forward's outputs
to find unused parameters; when it finds none, the reducer warns that the flag "results in an extra
traversal of the autograd graph every iteration, which can adversely affect performance".
`static_graph=True` (1.11+) is the cheaper choice when the unused set never changes.

## Example
```python
model = DistributedDataParallel(model, device_ids=[rank], find_unused_parameters=True)
```

## Fix and its safety
No automatic fix: only the author knows whether some parameters are unused on some steps.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "find_unused_parameters", "every supported"};
