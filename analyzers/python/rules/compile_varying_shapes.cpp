// DPX004: torch.compile on inputs whose shapes vary, with nothing to absorb the recompiles.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

// `torch._dynamo.config.automatic_dynamic_shapes = False` in the file: the author turned off what
// makes a varying shape cheap (on by default since PyTorch 2.1, torch/_dynamo/config.py).
const Assign* automatic_dynamic_off(const Module& m) {
  for (const auto& a : m.assigns())
    if (!a.augmented && m.qualified_name(a.left) == "torch._dynamo.config.automatic_dynamic_shapes" &&
        m.literal(a.right) == Literal::False)
      return &a;
  return nullptr;
}

void check(const Module& m, Reporter& r) {
  const Call* shapes = m.varying_shapes();
  if (!shapes || patterns::handles_dynamic_shapes(m)) return;
  const Assign* auto_off = automatic_dynamic_off(m);
  const std::string why = "input shapes vary (" + patterns::line_note(m, shapes->node) + ")";
  const std::string cost =
      ": every new shape compiles a new graph until `recompile_limit` (8) is hit, then the function runs eagerly";
  for (const auto& c : m.calls()) {
    if (!patterns::is_compile(c) || c.unknown_kwargs) continue;
    const Keyword* dyn = c.keyword("dynamic");
    std::optional<core::Fix> fix;
    if (dyn && m.literal(dyn->value) == Literal::False) {
      // dynamic=False: shapes are specialised, automatic dynamic shapes is off for this compile.
      fix = edits::fix("Use `dynamic=None` (automatic dynamic shapes)", false, {edits::set_keyword(m, *dyn, "None")});
      r.report(m.range(dyn->node), "`dynamic=False` while " + why + cost +
                                       "; drop it (automatic dynamic shapes recompiles once, then generalises), "
                                       "or call `torch._dynamo.mark_dynamic`",
               std::move(fix));
      continue;
    }
    if (dyn || !auto_off) continue;
    if (auto e = edits::add_keyword(m, c, "dynamic", "True")) fix = edits::fix("Add `dynamic=True`", false, {*e});
    r.report(m.range(c.function),
             "`torch.compile` without `dynamic=` while " + why + " and `automatic_dynamic_shapes` is off (" +
                 patterns::line_note(m, auto_off->node) + ")" + cost +
                 "; pass `dynamic=True`, call `torch._dynamo.mark_dynamic`, or raise "
                 "`torch._dynamo.config.cache_size_limit`",
             std::move(fix));
  }
  if (!auto_off) return;
  // A bare `@torch.compile` decorator (no call, so no arguments at all) compiles the same way.
  for (const auto& f : m.functions()) {
    for (TSNode d : f.decorators) {
      if (kind_of(d) == Kind::Call || m.qualified_name(d) != "torch.compile") continue;
      r.report(m.range(d),
               "`@" + std::string(m.text(d)) + "` without `dynamic=` while " + why +
                   " and `automatic_dynamic_shapes` is off (" + patterns::line_note(m, auto_off->node) + ")" + cost +
                   "; use `@" + std::string(m.text(d)) + "(dynamic=True)`, call `torch._dynamo.mark_dynamic`, "
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
In a file whose batches change shape (`pad_sequence`, `padding="longest"`/`padding=True`, Hugging
Face padding collators, padding to `max(len(...))`), and that neither calls
`torch._dynamo.mark_dynamic` nor sets `torch._dynamo.config.cache_size_limit` /
`recompile_limit`, flags:
- `torch.compile(..., dynamic=False)`;
- when the file sets `torch._dynamo.config.automatic_dynamic_shapes = False`: `torch.compile(...)`
  without `dynamic=` and bare `@torch.compile` decorators.

A plain `torch.compile(model)` on varying shapes is not reported: since PyTorch 2.1
`automatic_dynamic_shapes` is on by default (`torch/_dynamo/config.py`), so the first new shape
recompiles once with that dimension marked dynamic and later shapes reuse that graph.

## Why it matters
With `dynamic=False` (or automatic dynamic shapes off) Dynamo specialises every graph on its input
shapes: a new sequence length every batch compiles a new graph each time, and after
`recompile_limit` (`cache_size_limit` before 2.5; 8 by default) it gives up and runs the frame
eagerly, so the job gets slower instead of faster and compiled graphs accumulate memory. (PyTorch
2.0, before automatic dynamic shapes, behaved like this by default; the rule does not assume it.)

## Example
```python
batch = pad_sequence(seqs, batch_first=True)
model = torch.compile(model, dynamic=False)
```
Use instead:
```python
model = torch.compile(model)   # or dynamic=True, or mark_dynamic on the varying dimension
```

## Fix and its safety
`dynamic=False` becomes `dynamic=None` (automatic dynamic shapes); with automatic dynamic shapes
off, adds `dynamic=True` (a bare decorator becomes `@torch.compile(dynamic=True)`). Unsafe:
dynamic-shape kernels can be slower than specialised ones; padding to a few fixed bucket sizes or
raising the limit may suit better.

## Precision on real code
Precision 0.00 (0/1) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`) while it flagged every `torch.compile` without `dynamic=`
on varying shapes: the one finding compiled a function whose input shape is fixed, with automatic dynamic shapes on.
Narrowed since to the settings above, where the recompiles are real: no findings on the corpus.
)",
    true, &denpex::python::check, false, "0.00 (0/1) before narrowing to dynamic=False / automatic_dynamic_shapes=False; no findings after", "compile", "2.1+ (automatic dynamic shapes)"};
