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
      fix = edits::fix("Add `use_reentrant=False`", false, {*e});
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
Since PyTorch 2.1 omitting `use_reentrant` emits a `UserWarning` on every call
(pytorch/pytorch#100551); the value used is still `True`, the reentrant implementation, and
PyTorch has announced that omitting it will become an error and the default `False`
(`torch/utils/checkpoint.py`, pytorch/pytorch#160534): the same code changes behaviour across
versions. The reentrant variant also silently drops gradients when no input requires grad, and
rejects keyword arguments to the checkpointed function.

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
Adds `use_reentrant=False`, the value PyTorch recommends and is making the default. Marked
**unsafe**: an unset value means `use_reentrant=True` today, so the fix switches to the
non-reentrant implementation. It computes the same values and gradients, but edge behaviour
differs (gradients now reach parameters when no input requires grad, hooks and
`torch.autograd.grad` inside the region work, memory is freed earlier, RNG state handling and
the set of supported arguments change), so review it; `fixAll` does not apply it. Code that
depends on reentrant semantics should pass `use_reentrant=True` instead.

## Precision on real code
Precision 1.00 (13/13) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`).
)",
    true, &denpex::python::check, false, "1.00 (13/13)", "checkpoint checkpoint_sequential", "warns from 2.1; default to change"};
