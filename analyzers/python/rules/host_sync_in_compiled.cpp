// DPX015: host synchronisation inside a compiled function.
#include "denpex/python/rule.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    if (!m.in_compiled(c.scope)) continue;
    bool sync = (c.method == "item" || c.method == "cpu" || c.method == "tolist" || c.method == "numpy") &&
                c.positional == 0 && c.qname.empty();
    bool print = m.text(c.function) == "print" && c.qname.empty() && c.positional > 0;
    if (print) {
      // Printing only literals needs no tensor values.
      bool all_literal = true;
      for (TSNode a : c.positionals) all_literal = all_literal && m.literal(a) != Literal::Unknown;
      if (all_literal) print = false;
    }
    if (!sync && !print) continue;
    std::string what = print ? "`print(...)`" : "`." + std::string(c.method) + "()`";
    r.report(m.range(c.node), what + " inside a torch.compile'd function forces a device-to-host sync and a graph "
                                     "break: the graph is split and the speedup shrinks");
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(host_sync_in_compiled){
    "DPX015", "host-sync-in-compiled", "dynamo-graph-break", denpex::core::Severity::Warning,
    "host syncs (`.item()`, `.cpu()`, `print(tensor)`) inside compiled functions",
    R"(## What it does
Inside functions decorated with `@torch.compile` (or passed by name to `torch.compile(fn)`),
flags `.item()`, `.cpu()`, `.tolist()`, `.numpy()` and `print(...)` of non-literal values.

## Why it matters
Each needs a concrete value on the host: Dynamo breaks the graph there, runs the rest as a
separate graph, and the GPU stalls while the value is copied. A few of these per step can
erase the benefit of compiling.

Versions: PyTorch 2.0 and later. With the default
`torch._dynamo.config.capture_scalar_outputs = False`, `Tensor.item()` is a graph break; `.tolist()`,
`.numpy()` and `print` of tensors also break the graph (`print` stops breaking only when listed in
`torch._dynamo.config.reorderable_logging_functions`, 2.4+). `TORCH_LOGS=graph_breaks` shows each one.

## Example
```python
@torch.compile
def step(x):
    loss = model(x).mean()
    print(loss.item())
    return loss
```

## Fix and its safety
No automatic fix: return the value and log it outside the compiled function.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "compile", "2.0+ (torch.compile)"};
