// DPX003: torch.compile called once per step instead of once per program.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

// `if self._compiled is None: self._compiled = torch.compile(m)` compiles once: a guard
// between the call and its loop/function means the author already caches the result.
bool guarded(const Module& m, TSNode call) {
  for (TSNode p = ts_node_parent(call); !is_null(p); p = ts_node_parent(p)) {
    std::string_view t = ts_node_type(p);
    if (t == "for_statement" || t == "while_statement" || t == "function_definition") return false;
    if (t == "if_statement" || t == "conditional_expression") {
      std::string_view cond = m.text(field(p, "condition"));
      if (t == "conditional_expression") cond = m.text(p);
      if (cond.find("None") != std::string_view::npos || cond.find("not ") != std::string_view::npos ||
          cond.find("hasattr") != std::string_view::npos || cond.find(" in ") != std::string_view::npos)
        return true;
    }
  }
  return false;
}

const char* where(const Module& m, const Scope& s) {
  return s.in_loop ? "inside a loop" : (m.function(s) && m.function(s)->called_in_loop ? "in a function called from a loop" : "in a per-step function");
}

void check(const Module& m, Reporter& r) {
  for (const auto& c : m.calls()) {
    bool compile = patterns::is_compile(c);
    // `model.compile()`: nn.Module.compile. `re.compile(...)` resolves to an import and is skipped.
    bool module_compile = !compile && c.method == "compile" && c.qname.empty() && c.positional == 0 &&
                          m.qualified_name(c.receiver).empty() && kind_of(c.receiver) != Kind::String;
    if ((!compile && !module_compile) || !m.per_step(c.scope) || guarded(m, c.node)) continue;
    r.report(m.range(c.function), std::string(compile ? "`torch.compile`" : "`.compile()`") + " is called " +
                                      where(m, c.scope) +
                                      ": each call builds a new compiled wrapper and may recompile; compile once, "
                                      "before the loop");
  }
  for (const auto& f : m.functions()) {
    if (!m.per_step(f.scope)) continue;
    for (TSNode d : f.decorators)
      if (kind_of(d) != Kind::Call && m.qualified_name(d) == "torch.compile")
        r.report(m.range(d), std::string("`@torch.compile` decorates a function defined ") + where(m, f.scope) +
                                 ": every definition compiles anew; define it once, outside the loop");
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(compile_in_loop){
    "DPX003", "compile-in-loop", "compile-recompile-limit", denpex::core::Severity::Warning,
    "`torch.compile` inside a loop or per-step function",
    R"(## What it does
Flags `torch.compile(...)`, `@torch.compile` and `module.compile()` inside a `for`/`while` body, in
a step function (`training_step`, `train_step`, `*_step`), or in a function this file calls from a
loop. A call guarded by a cache check (`if compiled is None:`) is not flagged.

## Why it matters
Each `torch.compile` call creates a new wrapper with its own guards; calling it per step triggers
recompilation, fills the dynamo cache until `recompile_limit` is hit (then falls back to eager
silently), and grows host and device memory with every compiled graph.

## Example
```python
for batch in loader:
    step = torch.compile(train_step)
    step(batch)
```
Use instead:
```python
step = torch.compile(train_step)
for batch in loader:
    step(batch)
```

## Fix and its safety
No automatic fix: moving the call out of the loop changes what is compiled when.

## Precision on real code
Precision 0.00 (0/14) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX003`): every finding was regional compilation (one `torch.compile` per distinct block at set-up, the recommended pattern) or a compile cached/run once per process; telling those from a real per-step compile needs to know that the loop runs per step and compiles the same object.
)",
    true, &denpex::python::check, true, "0.00 (0/14); opt-in"};
