// DPX001: activation checkpointing with the reentrant implementation requested explicitly.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  bool risky_company = patterns::program_compiles(m) || m.has_call("torch.distributed.fsdp.FullyShardedDataParallel");
  for (const auto& c : m.calls()) {
    if (!patterns::is_checkpoint(c)) continue;
    const Keyword* k = c.keyword("use_reentrant");
    // Through a partial the keyword was already reported where the partial was made.
    if (!k || !patterns::own_keyword(c, *k) || m.literal(k->value) != Literal::True) continue;
    std::string msg = "`use_reentrant=True` selects the legacy reentrant checkpoint: no gradients for inputs that "
                      "do not require grad, and no support for keyword arguments or `torch.autograd.grad`";
    if (risky_company) msg += "; this program also uses torch.compile or FSDP, which it does not compose with";
    r.report(m.range(k->node), msg,
             edits::fix("Use `use_reentrant=False`", false, {edits::set_keyword(m, *k, "False")}));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(checkpoint_use_reentrant_true){
    "DPX001", "checkpoint-use-reentrant-true", "checkpoint-reentrant-no-grad-inputs", denpex::core::Severity::Warning,
    "`checkpoint(..., use_reentrant=True)`",
    R"(## What it does
Flags calls of `torch.utils.checkpoint.checkpoint` / `checkpoint_sequential` (under any import alias,
or through `functools.partial`) that pass `use_reentrant=True`.

## Why it matters
The reentrant implementation re-runs the forward inside `backward()` through a custom autograd
function. When none of the checkpointed inputs require grad it silently produces no gradients for
the parameters inside; it does not support `torch.autograd.grad`, keyword arguments, or
`torch.compile`/FSDP wrapping well, and under DDP it can mark parameters ready twice. PyTorch
recommends `use_reentrant=False`.

Versions: every PyTorch release from 1.13 on. The reentrant path is `CheckpointFunction` in
`torch/utils/checkpoint.py`: it warns "None of the inputs have requires_grad=True. Gradients will be
None" when no input needs grad, raises "Checkpointing is not compatible with .grad() or when an
`inputs` parameter is passed to .backward() ...", and rejects keyword arguments ("Unexpected keyword
arguments"); the docs of `torch.utils.checkpoint` recommend `use_reentrant=False`.

## Example
```python
from torch.utils.checkpoint import checkpoint
y = checkpoint(block, x, use_reentrant=True)
```
Use instead:
```python
y = checkpoint(block, x, use_reentrant=False)
```

## Fix and its safety
Replaces `True` with `False`. Unsafe: the two implementations differ in corner cases (hooks,
RNG state handling under `preserve_rng_state`, detached outputs), so review the change.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "use_reentrant", "1.13+ (every supported)"};
