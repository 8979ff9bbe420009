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

void identifiers(TSNode n, std::vector<TSNode>& out) {
  if (kind_of(n) == Kind::Identifier) out.push_back(n);
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) identifiers(ts_node_named_child(n, i), out);
}

// A new object every iteration: the loop variable itself (`for block in model.layers:
// block.compile()`, regional compilation: one compile per distinct block, the recommended
// pattern) or a name assigned in the loop body before the call (`model = load(name)`).
bool fresh_each_iteration(const Module& m, const Call& c, bool compile) {
  if (is_null(c.scope.loop)) return false;
  TSNode target = compile ? (c.positionals.empty() ? TSNode{} : c.positionals.front()) : c.receiver;
  while (!is_null(target) && (kind_of(target) == Kind::Attribute || kind_of(target) == Kind::Subscript ||
                              kind_of(target) == Kind::Call))
    target = kind_of(target) == Kind::Call ? field(target, "function") : field(target, "object");
  if (is_null(target) || kind_of(target) != Kind::Identifier) return true;  // undecidable: stay silent
  std::string_view name = m.text(target);
  if (std::string_view(ts_node_type(c.scope.loop)) == "for_statement") {
    std::vector<TSNode> bound;
    identifiers(field(c.scope.loop, "left"), bound);
    for (TSNode b : bound)
      if (m.text(b) == name) return true;
  }
  for (const auto& a : m.assigns())
    if (m.text(a.left) == name && patterns::in_range(a.node, c.scope.loop) &&
        ts_node_start_byte(a.node) < ts_node_start_byte(c.node))
      return true;
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
    // Only a compile directly in a loop body: on the corpus every compile in a function merely
    // called from a loop, or named like a step, was a set-up helper or cached.
    if ((!compile && !module_compile) || !c.scope.in_loop || guarded(m, c.node)) continue;
    if (fresh_each_iteration(m, c, compile)) continue;
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
Flags `torch.compile(...)` and `module.compile()` directly inside a `for`/`while` body, and
`@torch.compile` on a function defined in a loop or per-step function. Not flagged: a call guarded
by a cache check (`if compiled is None:`); a compile of a new object each iteration (the loop
variable, as in regional compilation `for block in model.layers: block.compile()`, or a name
assigned in the loop body before the call); compiles in functions that are merely called from a
loop or named like a step (on the corpus those were all set-up helpers or cached).

## Why it matters
Each `torch.compile` call creates a new wrapper with its own guards; calling it per step triggers
recompilation, fills the dynamo cache until `recompile_limit` is hit (then falls back to eager
silently), and grows host and device memory with every compiled graph.

Versions: PyTorch 2.0 and later (`torch.compile`). Compiling the same function again reuses
Dynamo's cache, which is keyed on the code object; what costs is a new `nn.Module` instance or a
new closure per iteration, which guards on object identity and recompiles until
`torch._dynamo.config.cache_size_limit` (8; `recompile_limit` since 2.6) sends it to eager. Whether
a loop runs per step and compiles a new object needs the interpreter; hence opt-in.

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
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX003`): every finding was regional compilation (one `torch.compile` per distinct block at set-up, the recommended pattern) or a compile cached/run once per process; telling those from a real per-step compile needs to know that the loop runs per step and compiles the same object. Narrowed since (the exemptions above): it now reports none of those 14 and
nothing else on the corpus, so its precision on real code is unmeasured; it stays opt-in until it is
shown right on real code.
)",
    true, &denpex::python::check, true, "0.00 (0/14), then 0 findings after narrowing; opt-in", "compile", "2.0+ (torch.compile)"};
