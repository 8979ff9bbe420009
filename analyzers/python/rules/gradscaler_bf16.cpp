// DPX018: loss scaling for bfloat16, which does not need it.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

bool is_autocast(const Call& c) {
  return c.qname == "torch.autocast" || c.qname == "torch.amp.autocast" || c.qname == "torch.cuda.amp.autocast" ||
         c.qname == "torch.amp.autocast_mode.autocast";
}

void check(const Module& m, Reporter& r) {
  bool bf16 = false, fp16 = false;
  for (const auto& c : m.calls()) {
    if (!is_autocast(c)) continue;
    TSNode dtype{};
    if (const Keyword* k = c.keyword("dtype")) dtype = k->value;
    else if (c.qname != "torch.cuda.amp.autocast" && c.positionals.size() >= 2) dtype = c.positionals[1];
    std::string q = m.qualified_name(dtype);
    if (q == "torch.bfloat16") bf16 = true;
    else fp16 = true;  // float16 by default, or undecidable: then a scaler may be needed
  }
  if (!bf16 || fp16) return;
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.amp.GradScaler" && c.qname != "torch.cuda.amp.GradScaler" && c.qname != "torch.GradScaler")
      continue;
    r.report(m.range(c.function),
             "`GradScaler` with bfloat16 autocast: bfloat16 has float32's exponent range, so loss scaling only "
             "adds work (and skipped steps on inf); drop the scaler");
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(gradscaler_bf16){
    "DPX018", "gradscaler-bf16", "", denpex::core::Severity::Info, "`GradScaler` with `bfloat16` autocast",
    R"(## What it does
Flags `GradScaler(...)` in a file whose every `autocast` uses `dtype=torch.bfloat16`.

## Why it matters
Loss scaling exists because float16 gradients underflow. bfloat16 has the same exponent range as
float32, so it does not underflow: the scaler only adds an unscale pass, inf checks and skipped
steps.

Versions: every release with autocast (1.10+). The AMP docs ("Gradient Scaling") motivate scaling
by float16's narrow range ("gradient values with small magnitudes may not be representable in
float16"); bfloat16 has float32's 8-bit exponent, so its gradients do not underflow that way.

## Example
```python
scaler = torch.amp.GradScaler("cuda")
with torch.autocast("cuda", dtype=torch.bfloat16):
    loss = model(x)
scaler.scale(loss).backward()
```

## Fix and its safety
No automatic fix: removing the scaler touches several lines (`scale`, `step`, `update`).

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "GradScaler", "1.10+ (autocast)"};
