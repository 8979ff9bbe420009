// DPX006: torch.cuda.empty_cache() on every step.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

// `for epoch in range(n): ... empty_cache()` runs a handful of times: not per step.
bool per_epoch_loop(const Module& m, const Scope& s) {
  if (!s.in_loop || ts_node_type(s.loop) != std::string_view("for_statement")) return false;
  return m.text(field(s.loop, "left")).find("epoch") != std::string_view::npos;
}

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.cuda.empty_cache" || !m.per_step(c.scope)) continue;
    if (per_epoch_loop(m, c.scope)) {
      // Only when the epoch loop is the whole story: a per-step function above it still counts.
      const Function* f = m.function(c.scope);
      if (!f || !f->per_step) continue;
    }
    r.report(m.range(c.function),
             "`torch.cuda.empty_cache()` on every step synchronises the device and returns cached blocks the "
             "allocator must request again next step: slower, and it does not fix fragmentation");
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(empty_cache_per_step){
    "DPX006", "empty-cache-per-step", "cuda-allocator-fragmentation", denpex::core::Severity::Warning,
    "`torch.cuda.empty_cache()` every step",
    R"(## What it does
Flags `torch.cuda.empty_cache()` inside a loop body or a per-step function (`training_step`,
`*_step`, or a function this file calls from a loop). A loop over epochs is not per step.

## Why it matters
`empty_cache` releases the caching allocator's unused blocks back to the driver. The next step
needs them again, so each step pays `cudaFree`/`cudaMalloc` and a device synchronisation. It
does not reduce the memory tensors actually use, and it hides, rather than fixes, fragmentation
(use `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` for that).

## Example
```python
for batch in loader:
    loss = step(batch)
    torch.cuda.empty_cache()
```

## Fix and its safety
No automatic fix: remove the call, or move it to where memory is handed to something outside
PyTorch.

## Precision on real code
Precision 0.00 (0/11) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX006`): every finding was `empty_cache()` after freeing a model, in an out-of-memory retry path, or behind a user option (Megatron `empty_unused_memory_level`).
)",
    true, &denpex::python::check, true, "0.00 (0/11); opt-in"};
