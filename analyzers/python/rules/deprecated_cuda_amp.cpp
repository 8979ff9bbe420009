// DPX009: the deprecated torch.cuda.amp spellings of autocast and GradScaler.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  std::string_view torch_name = m.local_name_of("torch");
  for (const auto& c : m.calls()) {
    std::string_view what;
    if (c.qname == "torch.cuda.amp.autocast") what = "autocast";
    else if (c.qname == "torch.cuda.amp.GradScaler") what = "GradScaler";
    else continue;
    // A fallback for PyTorch versions without `torch.amp.GradScaler` (< 2.3): correct as written.
    if (patterns::version_fallback(m, c.node, "torch.amp")) continue;
    std::optional<core::Fix> fix;
    // torch.cuda.amp.autocast(enabled, dtype, ...) and torch.amp.autocast(device_type, dtype, enabled)
    // order their positional parameters differently: only keyword calls map one to one.
    bool positional_ok = what == "GradScaler" || c.positional == 0;
    if (!torch_name.empty() && !is_null(c.arguments) && positional_ok && !c.unknown_positional) {
      std::vector<core::TextEdit> e;
      e.push_back(edits::replace(m, c.function, std::string(torch_name) + ".amp." + std::string(what)));
      TSNode first{};
      for (uint32_t i = 0; i < ts_node_named_child_count(c.arguments) && is_null(first); ++i)
        if (kind_of(ts_node_named_child(c.arguments, i)) != Kind::Comment) first = ts_node_named_child(c.arguments, i);
      if (is_null(first)) {
        core::Position close = m.end(c.arguments);
        close.column -= 1;
        e.push_back({{close, close}, "\"cuda\""});
      } else {
        core::Position at = m.start(first);
        e.push_back({{at, at}, "\"cuda\", "});
      }
      // torch.amp.autocast exists since 1.10; torch.amp.GradScaler only since 2.3.
      fix = edits::fix("Use `torch.amp." + std::string(what) + "(\"cuda\", ...)`", what == "autocast", std::move(e));
    }
    r.report(m.range(c.function),
             "`torch.cuda.amp." + std::string(what) + "` is deprecated; use `torch.amp." + std::string(what) +
                 "(\"cuda\", ...)`",
             std::move(fix));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(deprecated_cuda_amp){
    "DPX009", "deprecated-cuda-amp", "", denpex::core::Severity::Warning,
    "deprecated `torch.cuda.amp.autocast` / `GradScaler`",
    R"(## What it does
Flags calls of `torch.cuda.amp.autocast(...)` and `torch.cuda.amp.GradScaler(...)`, however
imported (`from torch.cuda import amp`, `from torch.cuda.amp import autocast`), including as
decorators.

## Why it matters
Both are deprecated since PyTorch 2.4 and emit a `FutureWarning` on every use (for `autocast`,
every step); they will be removed. `torch.amp` is the device-generic replacement.

## Example
```python
scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast(dtype=torch.float16):
    loss = model(x)
```
Use instead:
```python
scaler = torch.amp.GradScaler("cuda")
with torch.amp.autocast("cuda", dtype=torch.float16):
    loss = model(x)
```

Not reported inside an `except` handler or in the `else` branch of a version check
(`if hasattr(torch.amp, "GradScaler"): ... else: torch.cuda.amp.GradScaler()`): that code exists
for the old versions and is right there. Source: `torch/cuda/amp/autocast_mode.py` and
`torch/cuda/amp/grad_scaler.py` (2.4+) raise the `FutureWarning` in `__init__`.

## Fix and its safety
Rewrites the callee to `torch.amp.*` and passes `"cuda"` as the device. For `autocast` the fix is
safe: `torch.amp.autocast(device_type, ...)` exists since PyTorch 1.10 and is what
`torch.cuda.amp.autocast` calls. For `GradScaler` it is unsafe: `torch.amp.GradScaler` exists only
since PyTorch 2.3, so the rewrite breaks 1.13-2.2. Offered only when `torch` itself is imported (the
new spelling needs it) and, for `autocast`, when all arguments are keywords (the positional order
differs).

## Precision on real code
Precision 1.00 (7/7) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). Before this rule was narrowed: 0.64 (7/11), until version fallbacks were exempted.
)",
    true, &denpex::python::check, false, "1.00 (7/7); 0.64 (7/11) before version fallbacks were exempted"};
