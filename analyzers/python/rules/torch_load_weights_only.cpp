// DPX008: torch.load unpickling arbitrary objects.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.load" || c.unknown_kwargs || c.keyword("weights_only")) continue;
    // The sixth positional parameter is weights_only in recent signatures: undecidable past four.
    if (c.positional > 3 || c.unknown_positional) continue;
    // Unsafe always: before 2.6 the call unpickles anything; a checkpoint holding an argparse
    // Namespace, a config object or a numpy scalar loads today and fails with weights_only=True.
    // With a custom pickle_module, weights_only=True raises ("Can not safely load weights when
    // explicit pickle_module is specified"): no fix at all.
    bool custom_pickle = c.keyword("pickle_module") != nullptr || c.positional > 2;
    std::optional<core::Fix> fix;
    if (auto e = custom_pickle ? std::nullopt : edits::add_keyword(m, c, "weights_only", "True"))
      fix = edits::fix("Add `weights_only=True`", false, {*e});
    r.report(m.range(c.function),
             "`torch.load` without `weights_only` unpickles arbitrary objects (code execution from an untrusted "
             "file) and its default changed to True in PyTorch 2.6; pass `weights_only=True` (or `weights_only=False` "
             "for a trusted file that holds whole objects)",
             std::move(fix));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(torch_load_weights_only){
    "DPX008", "torch-load-weights-only", "", denpex::core::Severity::Warning, "`torch.load` without `weights_only`",
    R"(## What it does
Flags `torch.load(...)` calls that do not pass `weights_only`.

## Why it matters
Without `weights_only=True`, `torch.load` runs the full pickle machinery on PyTorch 1.13-2.5: a
checkpoint from an untrusted source can execute code. PyTorch 2.6 changed the default to `True`
(`torch/serialization.py`, release notes of 2.6; `weights_only` exists since 1.13), so the same
call loads differently (or fails on custom objects) depending on the installed version. Being
explicit fixes both.

## Example
```python
state = torch.load("ckpt.pt", map_location="cpu")
```
Use instead:
```python
state = torch.load("ckpt.pt", map_location="cpu", weights_only=True)
```

## Fix and its safety
Adds `weights_only=True`. Unsafe: it preserves behaviour only for files that hold tensors and
primitive containers; a checkpoint that also stores an `argparse.Namespace`, a config object or
numpy values loads today (before 2.6) and fails with the fix. Read what the file holds first, or
pass `weights_only=False` for trusted files that need full unpickling. Not offered when a
`pickle_module` is passed: `torch.load` rejects it together with `weights_only=True`.

## Precision on real code
Precision 1.00 (112/112) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`).
)",
    true, &denpex::python::check, false, "1.00 (112/112)", "load", "1.13-2.5 unsafe default; 2.6+ default True"};
