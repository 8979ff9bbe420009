// DPX004: torch.compile on inputs whose shapes vary, with nothing to absorb the recompiles.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  const Call* shapes = m.varying_shapes();
  if (!shapes || patterns::handles_dynamic_shapes(m)) return;
  for (const auto& c : m.calls()) {
    if (!patterns::is_compile(c) || c.unknown_kwargs || c.keyword("dynamic")) continue;
    std::optional<core::Fix> fix;
    if (auto e = edits::add_keyword(m, c, "dynamic", "True")) fix = edits::fix("Add `dynamic=True`", false, {*e});
    r.report(m.range(c.function),
             "`torch.compile` without `dynamic=` while input shapes vary (" + patterns::line_note(m, shapes->node) +
                 "): every new shape recompiles until `recompile_limit` (8) is hit, then the function runs eagerly; "
                 "pass `dynamic=True`, call `torch._dynamo.mark_dynamic`, or raise "
                 "`torch._dynamo.config.cache_size_limit`",
             std::move(fix));
  }
  // A bare `@torch.compile` decorator (no call, so no arguments at all) compiles the same way.
  for (const auto& f : m.functions()) {
    for (TSNode d : f.decorators) {
      if (kind_of(d) == Kind::Call || m.qualified_name(d) != "torch.compile") continue;
      r.report(m.range(d),
               "`@" + std::string(m.text(d)) + "` without `dynamic=` while input shapes vary (" +
                   patterns::line_note(m, shapes->node) +
                   "): every new shape recompiles until `recompile_limit` (8) is hit, then the function runs "
                   "eagerly; use `@" + std::string(m.text(d)) + "(dynamic=True)`, call `torch._dynamo.mark_dynamic`, "
                   "or raise `torch._dynamo.config.cache_size_limit`",
               edits::fix("Add `dynamic=True`", false,
                          {edits::replace(m, d, std::string(m.text(d)) + "(dynamic=True)")}));
    }
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(compile_varying_shapes){
    "DPX004", "compile-varying-shapes", "compile-recompile-limit", denpex::core::Severity::Warning,
    "`torch.compile` on varying shapes without `dynamic=` / `mark_dynamic` / raised `cache_size_limit`",
    R"(## What it does
Flags `torch.compile(...)` calls without a `dynamic=` argument, and bare `@torch.compile`
decorators, in a file whose batches change
shape (`pad_sequence`, `padding="longest"`/`padding=True`, Hugging Face padding collators, padding
to `max(len(...))`), when the file neither calls `torch._dynamo.mark_dynamic` nor sets
`torch._dynamo.config.cache_size_limit` / `recompile_limit`.

## Why it matters
Dynamo specialises on shapes. With a new sequence length every batch it recompiles again and
again; after `recompile_limit` (8 by default) recompiles it gives up and runs the frame eagerly,
so the job gets slower instead of faster, and compiled graphs accumulate memory.

## Example
```python
batch = pad_sequence(seqs, batch_first=True)
model = torch.compile(model)
```
Use instead:
```python
model = torch.compile(model, dynamic=True)
```

## Fix and its safety
Adds `dynamic=True` (a bare decorator becomes `@torch.compile(dynamic=True)`). Unsafe: dynamic-shape kernels can be slower than specialised ones; padding
to a few fixed bucket sizes or raising the limit may suit better.

## Precision on real code
Precision 0.00 (0/1) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX004`): since `automatic_dynamic_shapes` (on by default since PyTorch 2.1, `torch/_dynamo/config.py`) a shape that varies recompiles once and then runs as dynamic, so "varying shapes" alone is not a recompile storm; the one finding compiled a function whose input shape is fixed.
)",
    true, &denpex::python::check, true, "0.00 (0/1); opt-in"};
