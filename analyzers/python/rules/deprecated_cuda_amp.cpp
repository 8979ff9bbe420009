// DPX009: the deprecated torch.cuda.amp spellings of autocast and GradScaler.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

// A cursor walk: ts_node_named_child(n, i) starts from the first child each time, quadratic in a
// block's length.
void collect(TSNode n, std::string_view type, std::vector<TSNode>& out) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = true; more;) {
    TSNode cur = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(cur) && type == ts_node_type(cur)) out.push_back(cur);
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&c);
}

// The edit that deletes `from torch.cuda[.amp] import NAME` when `callee` (NAME or NAME.attr) is the
// last use of NAME, so the fix leaves no unused import behind. Only a statement alone on its
// lines that imports just NAME; an emptied block gets `pass`.
// The identifiers and from-imports of the file, collected once per check and only when needed.
struct FileNodes {
  bool done = false;
  std::vector<TSNode> ids, imports;
};

std::optional<core::TextEdit> drop_import(const Module& m, TSNode callee, FileNodes& nodes) {
  TSNode root_id = callee;
  while (kind_of(root_id) == Kind::Attribute) root_id = field(root_id, "object");
  if (kind_of(root_id) != Kind::Identifier) return std::nullopt;
  // `torch.cuda.amp.autocast` spelled out uses `torch`: there is no import of its own to drop.
  if (m.qualified_name(root_id).rfind("torch.cuda", 0) != 0) return std::nullopt;
  std::string_view name = m.text(root_id);
  if (!nodes.done) {
    TSNode root = ts_tree_root_node(m.tree().get());
    collect(root, "identifier", nodes.ids);
    collect(root, "import_from_statement", nodes.imports);
    nodes.done = true;
  }
  const std::vector<TSNode>& ids = nodes.ids;
  const std::vector<TSNode>& imports = nodes.imports;
  size_t uses = 0;
  for (TSNode id : ids) uses += m.text(id) == name;
  for (TSNode st : imports) {
    std::string_view module = m.text(field(st, "module_name"));
    if (module != "torch.cuda.amp" && module != "torch.cuda") continue;
    if (ts_node_named_child_count(st) != 2) continue;  // the module and exactly one name
    TSNode imported = ts_node_named_child(st, 1);
    bool plain = kind_of(imported) == Kind::DottedName && m.text(imported) == name;
    bool aliased = kind_of(imported) == Kind::AliasedImport && m.text(field(imported, "alias")) == name;
    if (!plain && !aliased) continue;
    // The import names it once (twice with `as`): any further use besides `callee` keeps it.
    if (uses != 2u + (aliased && m.text(field(imported, "name")) == name ? 1u : 0u)) return std::nullopt;
    core::Range range = m.range(st);
    std::string_view first = m.lines().line(m.source(), range.start.line);
    if (first.substr(0, range.start.column).find_first_not_of(" \t") != std::string_view::npos) return std::nullopt;
    std::string_view last = m.lines().line(m.source(), range.end.line);
    size_t rest = last.find_first_not_of(" \t\r\n", range.end.column);
    if (rest != std::string_view::npos && last[rest] != '#') return std::nullopt;
    if (range.end.line + 1 >= m.lines().line_count()) return std::nullopt;
    TSNode block = ts_node_parent(st);
    if (!is_null(block) && kind_of(block) == Kind::Block && ts_node_named_child_count(block) == 1)
      return core::TextEdit{range, "pass"};
    return core::TextEdit{{{range.start.line, 0}, {range.end.line + 1, 0}}, ""};
  }
  return std::nullopt;
}

// torch.cuda.amp.custom_fwd/custom_bwd: deprecated since 2.4 for torch.amp.custom_fwd(device_type=
// "cuda"), which does not exist before 2.4: reported, no fix (it would break 1.13-2.3).
void report_custom(const Module& m, Reporter& r, TSNode at, std::string_view qname) {
  std::string what(qname.substr(qname.rfind('.') + 1));
  r.report(m.range(at), "`torch.cuda.amp." + what + "` is deprecated; use `torch.amp." + what +
                            "(device_type=\"cuda\")` (PyTorch 2.4+)");
}

void check(const Module& m, Reporter& r) {
  std::string_view torch_name = m.local_name_of("torch");
  FileNodes nodes;
  for (const auto& c : m.calls()) {
    std::string_view what, device = "cuda";
    if (c.qname == "torch.cuda.amp.autocast") what = "autocast";
    else if (c.qname == "torch.cuda.amp.GradScaler") what = "GradScaler";
    else if (c.qname == "torch.cpu.amp.autocast") what = "autocast", device = "cpu";
    else if (c.qname == "torch.cuda.amp.custom_fwd" || c.qname == "torch.cuda.amp.custom_bwd") {
      if (patterns::version_fallback(m, c.node, "torch.amp")) continue;
      report_custom(m, r, c.function, c.qname);
      continue;
    } else continue;
    // A fallback for PyTorch versions without `torch.amp.GradScaler` (< 2.3): correct as written.
    if (patterns::version_fallback(m, c.node, "torch.amp")) continue;
    std::optional<core::Fix> fix;
    // torch.cuda.amp.autocast(enabled, dtype, ...) and torch.amp.autocast(device_type, dtype, enabled)
    // order their positional parameters differently: only keyword calls map one to one.
    bool positional_ok = what == "GradScaler" || c.positional == 0;
    if (!torch_name.empty() && !is_null(c.arguments) && positional_ok && !c.unknown_positional) {
      std::vector<core::TextEdit> e;
      e.push_back(edits::replace(m, c.function, std::string(torch_name) + ".amp." + std::string(what)));
      const std::string dev = "\"" + std::string(device) + "\"";
      TSNode first{};
      for (uint32_t i = 0; i < ts_node_named_child_count(c.arguments) && is_null(first); ++i)
        if (kind_of(ts_node_named_child(c.arguments, i)) != Kind::Comment) first = ts_node_named_child(c.arguments, i);
      if (is_null(first)) {
        core::Position close = m.end(c.arguments);
        close.column -= 1;
        e.push_back({{close, close}, dev});
      } else {
        core::Position at = m.start(first);
        e.push_back({{at, at}, dev + ", "});
      }
      if (auto drop = drop_import(m, c.function, nodes)) e.push_back(*drop);
      // torch.amp.autocast exists since 1.10; torch.amp.GradScaler only since 2.3.
      fix = edits::fix("Use `torch.amp." + std::string(what) + "(\"" + std::string(device) + "\", ...)`",
                       what == "autocast", std::move(e));
    }
    r.report(m.range(c.function),
             "`torch." + std::string(device) + ".amp." + std::string(what) + "` is deprecated; use `torch.amp." +
                 std::string(what) + "(\"" + std::string(device) + "\", ...)`",
             std::move(fix));
  }
  // Bare `@torch.cuda.amp.custom_fwd` decorators (the called form is a Call above).
  for (const auto& f : m.functions())
    for (TSNode d : f.decorators) {
      if (kind_of(d) == Kind::Call) continue;
      std::string q = m.qualified_name(d);
      if (q == "torch.cuda.amp.custom_fwd" || q == "torch.cuda.amp.custom_bwd") report_custom(m, r, d, q);
    }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(deprecated_cuda_amp){
    "DPX009", "deprecated-cuda-amp", "", denpex::core::Severity::Warning,
    "deprecated `torch.cuda.amp.autocast` / `GradScaler` / `custom_fwd` / `custom_bwd`, `torch.cpu.amp.autocast`",
    R"(## What it does
Flags calls of `torch.cuda.amp.autocast(...)`, `torch.cuda.amp.GradScaler(...)` and
`torch.cpu.amp.autocast(...)`, and the `torch.cuda.amp.custom_fwd`/`custom_bwd` decorators, however
imported (`from torch.cuda import amp`, `from torch.cuda.amp import autocast`), including as
decorators (the checks TorchFix makes for these names).

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
Rewrites the callee to `torch.amp.*` and passes `"cuda"` (`"cpu"` for `torch.cpu.amp.autocast`)
as the device, and deletes a
`from torch.cuda.amp import NAME` that the rewrite leaves unused. For `autocast` the fix is
safe: `torch.amp.autocast(device_type, ...)` exists since PyTorch 1.10 and is what
`torch.cuda.amp.autocast` calls. For `GradScaler` it is unsafe: `torch.amp.GradScaler` exists only
since PyTorch 2.3, so the rewrite breaks 1.13-2.2. Offered only when `torch` itself is imported (the
new spelling needs it) and, for `autocast`, when all arguments are keywords (the positional order
differs). No fix for `custom_fwd`/`custom_bwd`: `torch.amp.custom_fwd(device_type=...)` exists
only since PyTorch 2.4.

## Precision on real code
Precision 1.00 (13/13, 6 of them `custom_fwd`/`custom_bwd`) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). Before this rule was narrowed: 0.64 (7/11), until version fallbacks were exempted.
)",
    true, &denpex::python::check, false, "1.00 (13/13); 0.64 (7/11) before version fallbacks were exempted", "amp", "2.4+ deprecated (torch.amp.GradScaler 2.3+)"};
