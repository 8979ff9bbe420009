// DPX006: torch.cuda.empty_cache() on every step.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

// `for epoch in range(n): ... empty_cache()` runs a handful of times: not per step.
bool per_epoch_loop(const Module& m, const Scope& s) {
  if (!s.in_loop || ts_node_type(s.loop) != std::string_view("for_statement")) return false;
  return m.text(field(s.loop, "left")).find("epoch") != std::string_view::npos;
}

// Not every step: under an `if` (a user option such as Megatron's `empty_unused_memory_level`,
// a periodic condition), in a `try`/`except` (an out-of-memory retry), or right after a `del` in
// the same block (freeing a model between phases).
bool occasional(TSNode call) {
  TSNode stmt = call;
  for (TSNode p = ts_node_parent(call); !ts_node_is_null(p); p = ts_node_parent(p)) {
    std::string_view t = ts_node_type(p);
    if (t == "for_statement" || t == "while_statement" || t == "function_definition") break;
    if (t == "if_statement" || t == "elif_clause" || t == "else_clause" || t == "try_statement" ||
        t == "except_clause" || t == "conditional_expression")
      return true;
    if (t == "block" || t == "module") {
      for (TSNode prev = ts_node_prev_named_sibling(stmt); !ts_node_is_null(prev); prev = ts_node_prev_named_sibling(prev))
        if (std::string_view(ts_node_type(prev)) == "delete_statement") return true;
    }
    stmt = p;
  }
  return false;
}

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.cuda.empty_cache" || !m.per_step(c.scope) || occasional(c.node)) continue;
    // A function merely called from some loop (a test or benchmark driver, a cleanup helper) is
    // not a training step; a step-named function or a loop body is.
    const Function* fn = m.function(c.scope);
    if (!c.scope.in_loop && fn && fn->called_in_loop && fn->name.find("step") == std::string_view::npos) continue;
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
Flags `torch.cuda.empty_cache()` inside a loop body or a step function (`training_step`,
`*_step`). Not per step: a loop over epochs; a call under an `if` (a user option, a periodic
condition), in a `try`/`except` (an out-of-memory retry), right after a `del`, or in a function
that is merely called from some loop.

## Why it matters
`empty_cache` releases the caching allocator's unused blocks back to the driver. The next step
needs them again, so each step pays `cudaFree`/`cudaMalloc` and a device synchronisation. It
does not reduce the memory tensors actually use, and it hides, rather than fixes, fragmentation
(use `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` for that).

Versions: every release (`torch/cuda/memory.py`: "`empty_cache()` doesn't increase the amount of
GPU memory available for PyTorch"; docs "CUDA semantics: memory management"). Releasing cached
blocks makes the next allocations go back to `cudaMalloc`, which synchronises the device.

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
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX006`): every finding was `empty_cache()` after freeing a model, in an out-of-memory retry path, or behind a user option (Megatron `empty_unused_memory_level`). Narrowed since (no report under an `if`,
in a `try`/`except`, after a `del`, or in a function merely called from a loop): none of those 11
and nothing else on the corpus, so its precision on real code is unmeasured; it stays opt-in.
)",
    true, &denpex::python::check, true, "0.00 (0/11), then 0 findings after narrowing; opt-in", "empty_cache", "every supported"};
