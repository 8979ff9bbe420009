// DPX012: gradients zeroed by memset instead of being released.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    if (c.method != "zero_grad") continue;
    const Keyword* k = c.keyword("set_to_none");
    if (!k || m.literal(k->value) != Literal::False) continue;
    r.report(m.range(k->node),
             "`zero_grad(set_to_none=False)` keeps every gradient tensor allocated and launches a memset per "
             "parameter each step; the default (`set_to_none=True`) frees them",
             edits::fix("Use `set_to_none=True`", false, {edits::set_keyword(m, *k, "True")}));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(zero_grad_set_to_none_false){
    "DPX012", "zero-grad-set-to-none-false", "", denpex::core::Severity::Warning, "`zero_grad(set_to_none=False)`",
    R"(## What it does
Flags `optimizer.zero_grad(set_to_none=False)` and `model.zero_grad(set_to_none=False)`.

## Why it matters
Zeroing writes every gradient tensor every step and keeps their memory allocated between the
optimizer step and the next backward. Setting them to `None` (the default since PyTorch 2.0) is
cheaper and lowers peak memory.

## Example
```python
optimizer.zero_grad(set_to_none=False)
```
Use instead:
```python
optimizer.zero_grad()
```

## Fix and its safety
Sets `set_to_none=True`. Unsafe: code that reads `.grad` expecting a zero tensor (not `None`)
between steps, or an optimizer that treats `None` and zero differently, changes behaviour.
)",
    true, &denpex::python::check};
