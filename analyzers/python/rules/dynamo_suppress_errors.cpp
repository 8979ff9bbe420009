// DPX016: compile failures silently turned into eager fallbacks.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  for (const auto& a : m.assigns()) {
    if (a.augmented || m.literal(a.right) != Literal::True) continue;
    if (m.qualified_name(a.left) != "torch._dynamo.config.suppress_errors") continue;
    r.report(m.range(a.node),
             "`suppress_errors = True` hides torch.compile failures: frames silently fall back to eager and the "
             "speedup (and the error) disappear",
             edits::fix("Set `suppress_errors = False`", false, {edits::replace(m, a.right, "False")}));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(dynamo_suppress_errors){
    "DPX016", "dynamo-suppress-errors", "dynamo-suppress-errors-fallback", denpex::core::Severity::Warning,
    "`torch._dynamo.config.suppress_errors = True`",
    R"(## What it does
Flags assignments of `True` to `torch._dynamo.config.suppress_errors` (also through
`import torch._dynamo as dynamo`).

## Why it matters
With errors suppressed, any frame that fails to compile runs eagerly with only a log line: the
job looks healthy but runs slow, and the real compiler error is never surfaced.

Versions: PyTorch 2.0 and later. `torch/_dynamo/config.py` defines `suppress_errors` (also the
`TORCHDYNAMO_SUPPRESS_ERRORS` environment variable); when true, a frame whose compilation fails is
logged and run eagerly instead of raising.

## Example
```python
torch._dynamo.config.suppress_errors = True
```

## Fix and its safety
Sets it to `False`. Unsafe: compile errors that were hidden will now stop the program.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "suppress_errors", "2.0+ (torch.compile)"};
