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
    bool custom_pickle = c.keyword("pickle_module") != nullptr || c.positional > 2;
    std::optional<core::Fix> fix;
    if (auto e = edits::add_keyword(m, c, "weights_only", "True"))
      fix = edits::fix("Add `weights_only=True`", !custom_pickle, {*e});
    r.report(m.range(c.function),
             "`torch.load` without `weights_only` unpickles arbitrary objects (code execution from an untrusted "
             "file) and its default changed to True in PyTorch 2.6; pass `weights_only=True`",
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
Without `weights_only=True`, `torch.load` runs the full pickle machinery: a checkpoint from an
untrusted source can execute code. PyTorch 2.6 changed the default to `True`, so the same call
loads differently (or fails on custom objects) depending on the installed version. Being
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
Adds `weights_only=True`. Safe for state dicts of tensors and primitive containers; marked unsafe
when a `pickle_module` is passed, since that signals custom objects which `weights_only` rejects.
)",
    true, &denpex::python::check};
