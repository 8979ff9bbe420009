// DPX002: activation checkpointing that leaves use_reentrant to the version-dependent default.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    // A call through a partial inherits the partial's keywords; the partial itself is checked.
    if (!patterns::is_checkpoint(c) || c.via_partial || c.unknown_kwargs || c.keyword("use_reentrant")) continue;
    std::optional<core::Fix> fix;
    if (auto e = edits::add_keyword(m, c, "use_reentrant", "False"))
      fix = edits::fix("Add `use_reentrant=False`", true, {*e});
    r.report(m.range(c.is_partial ? c.node : c.function),
             "`use_reentrant` is not set: PyTorch warns on every call and the default is changing; pass "
             "`use_reentrant=False` explicitly",
             std::move(fix));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(checkpoint_use_reentrant_missing){
    "DPX002", "checkpoint-use-reentrant-missing", "checkpoint-use-reentrant-unset", denpex::core::Severity::Warning,
    "`checkpoint` without an explicit `use_reentrant`",
    R"(## What it does
Flags `torch.utils.checkpoint.checkpoint` / `checkpoint_sequential` calls (any alias, or a
`functools.partial` of them) that do not pass `use_reentrant`. Stays silent when a `**kwargs`
from a variable might carry it.

## Why it matters
Since PyTorch 2.1 omitting `use_reentrant` emits a warning on every call, and the default is
moving from the reentrant implementation to the non-reentrant one: the same code changes
behaviour across versions. The reentrant default also silently drops gradients when the inputs
do not require grad.

## Example
```python
import torch.utils.checkpoint as cp
y = cp.checkpoint(block, x)
```
Use instead:
```python
y = cp.checkpoint(block, x, use_reentrant=False)
```

## Fix and its safety
Adds `use_reentrant=False`, the value PyTorch recommends and is making the default. Safe.

## Precision on real code
Precision 1.00 (13/13) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`).
)",
    true, &denpex::python::check, false, "1.00 (13/13)"};
