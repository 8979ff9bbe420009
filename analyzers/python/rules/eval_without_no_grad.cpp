// DPX010: evaluation forward passes that still record autograd graphs.
#include <set>

#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

// Lightning runs these under no_grad itself.
bool lightning_eval_hook(const Module& m, const Scope& s) {
  static const std::set<std::string_view> kHooks = {"validation_step", "test_step", "predict_step"};
  for (const Function* f = m.function(s); f; f = f->parent >= 0 ? &m.functions()[static_cast<size_t>(f->parent)] : nullptr)
    if (kHooks.count(f->name)) return true;
  return false;
}

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    if ((c.qname == "torch.no_grad" || c.qname == "torch.inference_mode") && c.statement)
      r.report(m.range(c.node), "`" + std::string(m.text(c.function)) +
                                    "()` on its own creates a context manager and discards it: gradients stay on; "
                                    "use `with " + std::string(m.text(c.function)) + "():`");
  }
  for (const auto& ev : m.calls()) {
    if (ev.method != "eval" || ev.positional != 0 || !ev.statement || is_null(ev.receiver)) continue;
    if (!m.qualified_name(ev.receiver).empty()) continue;
    std::string_view model = m.text(ev.receiver);
    if (lightning_eval_hook(m, ev.scope) || patterns::in_test(m, ev.scope)) continue;
    // A function that also runs backward is a training step: a frozen sub-model (a teacher, a
    // reward model, a VAE encoder) in eval() may need its graph for the gradients that flow through.
    bool trains = false;
    for (const auto& c : m.calls())
      if (c.scope.function == ev.scope.function && (c.method == "backward" || c.qname == "torch.autograd.grad" ||
                                                    c.qname == "torch.autograd.backward"))
        trains = true;
    if (trains) continue;
    uint32_t from = ts_node_end_byte(ev.node);
    // The forward passes after `.eval()` in the same function, until `.train()` switches back.
    uint32_t until = UINT32_MAX;
    for (const auto& c : m.calls())
      if (c.method == "train" && m.text(c.receiver) == model && c.scope.function == ev.scope.function &&
          ts_node_start_byte(c.node) > from && ts_node_start_byte(c.node) < until)
        until = ts_node_start_byte(c.node);
    for (const auto& c : m.calls()) {
      if (c.scope.function != ev.scope.function || ts_node_start_byte(c.node) <= from || ts_node_start_byte(c.node) >= until)
        continue;
      bool forward = m.text(c.function) == model || (c.method == "forward" && m.text(c.receiver) == model);
      // Only an evaluation loop costs: one forward (a smoke test, an export check) keeps one graph.
      if (!forward || m.in_no_grad(c.scope) || !c.scope.in_loop) continue;
      r.report(m.range(c.node),
               "forward pass after `" + std::string(model) + ".eval()` outside `torch.no_grad()`/`inference_mode()`: "
                   "autograd still records the graph and keeps activations, using memory (and time) evaluation "
                   "does not need");
      break;
    }
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(eval_without_no_grad){
    "DPX010", "eval-without-no-grad", "cuda-oom", denpex::core::Severity::Warning,
    "evaluation forward pass without `no_grad` / `inference_mode`",
    R"(## What it does
After `model.eval()` in a function, flags the first call of `model(...)` / `model.forward(...)`
inside a loop (an evaluation loop) that is not inside `with torch.no_grad()`, `with torch.inference_mode()`,
`torch.set_grad_enabled(False)` or a function decorated with them (until `model.train()`).
Lightning's `validation_step`/`test_step`/`predict_step` are exempt (Lightning disables grad), so
are unit tests (`test_*` functions, methods of `Test*` classes), a forward outside any loop, and functions that
also call `backward()`/`torch.autograd.grad` (a frozen model in `eval()` inside a training step,
whose graph the gradients may need).
Also flags a bare `torch.no_grad()` statement, which never takes effect.

## Why it matters
`eval()` only changes dropout and batch-norm behaviour; it does not turn off autograd. The
evaluation loop then stores activations for a backward that never comes: more memory (an OOM
in validation that training did not hit) and slower evaluation. True in every PyTorch version:
`Module.eval()` is `train(False)` (`torch/nn/modules/module.py`); grad mode is separate
(docs: "Locally disabling gradient computation", notes/autograd).

## Example
```python
model.eval()
for x, y in val_loader:
    out = model(x)
```
Use instead:
```python
model.eval()
with torch.no_grad():
    for x, y in val_loader:
        out = model(x)
```

## Fix and its safety
No automatic fix: the region to wrap is a judgement call.

## Precision on real code
Precision 1.00 (3/3) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). Before this rule was narrowed: 0.12 (3/26), until unit tests, single forwards and training steps were exempted.
)",
    true, &denpex::python::check, false, "1.00 (3/3); 0.12 (3/26) before unit tests, single forwards and training steps were exempted", "eval no_grad inference_mode", "every supported"};
