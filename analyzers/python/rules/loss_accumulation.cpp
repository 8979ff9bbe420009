// DPX007: a loss tensor summed into a running total, keeping every step's graph alive.
#include <cctype>

#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

bool loss_like(std::string_view name) { return name.find("loss") != std::string_view::npos; }

// What the name holds at `use`, from the last plain assignment before it in the same function.
// True: a tensor from a call (criterion(...), model(...).loss); false: a float or undecidable.
bool holds_graph_tensor(const Module& m, std::string_view name, const Scope& scope, uint32_t use) {
  const Assign* last = nullptr;
  for (const auto& a : m.assigns()) {
    if (a.augmented || a.scope.function != scope.function || ts_node_start_byte(a.node) >= use) continue;
    if (m.text(a.left) == name) last = &a;
  }
  if (!last || kind_of(last->right) != Kind::Call) return false;
  std::string_view rhs = m.text(last->right);
  for (std::string_view detached : {".item()", ".detach()", ".tolist()", ".cpu()", ".numpy()"})
    if (rhs.size() >= detached.size() && rhs.substr(rhs.size() - detached.size()) == detached) return false;
  for (std::string_view conv : {"float(", "int(", "len(", "sum(", "round("})
    if (rhs.substr(0, conv.size()) == conv) return false;
  return true;
}

// `total.backward()` means the sum is meant to carry the graph (gradient accumulation).
bool backpropagated(const Module& m, std::string_view total) {
  for (const auto& c : m.calls())
    if (c.method == "backward" && m.text(c.receiver) == total) return true;
  return false;
}

// The collected tensors are combined into one loss (`torch.stack(losses)`, `sum(losses)`): collected
// on purpose, and `.item()` would break the combination.
bool combined_later(const Module& m, std::string_view list) {
  // Read back one by one (`losses[i].backward()`): the graphs are wanted.
  std::string indexed = std::string(list) + "[";
  for (size_t at = m.source().find(indexed); at != std::string_view::npos; at = m.source().find(indexed, at + 1)) {
    char before = at ? m.source()[at - 1] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(before)) && before != '_' && before != '.') return true;
  }
  for (const auto& c : m.calls()) {
    if (c.positionals.empty() || m.text(c.positionals.front()) != list) continue;
    std::string_view callee = m.text(c.function);
    if (c.qname == "torch.stack" || c.qname == "torch.cat" || c.qname == "torch.sum" || c.qname == "torch.mean" ||
        callee == "sum" || callee == "torch.stack" || callee == "torch.cat")
      return true;
  }
  return false;
}

// The running total leaves the function (`return total`): a loss being built, e.g. a sum over
// layers or chunks inside a loss function.
bool returned(const Module& m, const Scope& s, std::string_view total) {
  const Function* f = m.function(s);
  if (!f) return false;
  std::string_view body = m.text(f->node);
  for (size_t at = body.find("return "); at != std::string_view::npos; at = body.find("return ", at + 1)) {
    size_t end = body.find('\n', at);
    std::string_view line = body.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (line.find(total) != std::string_view::npos) return true;
  }
  return false;
}

void check(const Module& m, Reporter& r) {
  for (const auto& a : m.assigns()) {
    if (!m.per_step(a.scope) || m.in_no_grad(a.scope)) continue;
    TSNode added{};
    if (a.augmented && a.op == "+=") {
      added = a.right;
    } else if (!a.augmented && kind_of(a.right) == Kind::BinaryOperator &&
               m.text(field(a.right, "left")) == m.text(a.left) && m.text(field(a.right, "operator")) == "+") {
      added = field(a.right, "right");
    }
    if (kind_of(added) != Kind::Identifier && kind_of(added) != Kind::Attribute) continue;
    std::string_view name = m.text(added);
    if (!loss_like(kind_of(added) == Kind::Attribute ? m.text(field(added, "attribute")) : name)) continue;
    if (kind_of(added) == Kind::Identifier && !holds_graph_tensor(m, name, a.scope, ts_node_start_byte(a.node))) continue;
    if (kind_of(a.left) == Kind::Subscript || backpropagated(m, m.text(a.left))) continue;
    if (returned(m, a.scope, m.text(a.left)) || patterns::in_test(m, a.scope)) continue;
    r.report(m.range(added),
             "`" + std::string(name) + "` is added to a running total as a tensor: each step's autograd graph stays "
                 "alive through the sum and memory grows until OOM; accumulate `" + std::string(name) + ".item()`",
             edits::fix("Accumulate `" + std::string(name) + ".item()`", false,
                        {edits::replace(m, added, std::string(name) + ".item()")}));
  }
  for (const auto& c : m.calls()) {
    if (c.method != "append" || c.positional != 1 || !m.per_step(c.scope) || m.in_no_grad(c.scope)) continue;
    if (combined_later(m, m.text(c.receiver)) || patterns::in_test(m, c.scope)) continue;
    TSNode v = c.positionals.front();
    if (kind_of(v) != Kind::Identifier || !loss_like(m.text(v))) continue;
    if (!holds_graph_tensor(m, m.text(v), c.scope, ts_node_start_byte(c.node))) continue;
    r.report(m.range(v),
             "`" + std::string(m.text(v)) + "` is appended as a tensor: the list keeps every step's autograd graph "
                 "alive; append `" + std::string(m.text(v)) + ".item()`",
             edits::fix("Append `" + std::string(m.text(v)) + ".item()`", false,
                        {edits::replace(m, v, std::string(m.text(v)) + ".item()")}));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(loss_accumulation){
    "DPX007", "loss-accumulation", "cuda-oom", denpex::core::Severity::Warning,
    "loss accumulated into a running total without `.item()` / `.detach()`",
    R"(## What it does
In a loop or per-step function, flags `total += loss`, `total = total + loss` and
`losses.append(loss)` where `loss` was assigned from a call in the same function (a tensor with a
graph) rather than from `.item()`, `.detach()` or `float(...)`. Silent when the total itself is
backpropagated (`total.backward()`: deliberate accumulation), returned (a loss built over layers
or chunks), when the list is combined or indexed later (`torch.stack(losses)`, `sum(losses)`,
`losses[i]`), in unit tests, and under `no_grad`.

## Why it matters
The PyTorch FAQ ("Don't accumulate history across your training loop", docs notes/faq) names
exactly `total_loss += loss`.
A loss tensor carries its autograd graph. Summing it keeps a reference to every step's graph and
its saved activations, so memory grows step by step until CUDA runs out of memory, typically
hours into training.

Versions: every release. The PyTorch FAQ (docs/source/notes/faq.rst, "My model reports cuda
runtime error(2): out of memory") names `total_loss += loss` as accumulating autograd history
across the loop and gives `total_loss += float(loss)` as the fix.

## Example
```python
for batch in loader:
    loss = criterion(model(batch.x), batch.y)
    loss.backward()
    total_loss += loss
```
Use instead:
```python
    total_loss += loss.item()
```

## Fix and its safety
Rewrites the added value to `loss.item()`. Unsafe: the total becomes a Python float, and
`.item()` synchronises with the GPU each step (`loss.detach()` avoids that if the total must stay
a tensor).

## Precision on real code
Precision 0.00 (0/10) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX007`): every finding collected losses on purpose: stacked or summed for one backward, under `@torch.no_grad()`, or after `backward()` in a unit test. Narrowed since (the exemptions above): it now reports none of
those 10 and nothing else on the corpus, so its precision on real code is unmeasured; it stays opt-in
until it is shown right on real code.
)",
    true, &denpex::python::check, true, "0.00 (0/10), then 0 findings after narrowing; opt-in", "", "every supported"};
