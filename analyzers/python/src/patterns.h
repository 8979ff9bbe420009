#pragma once
// Small predicates over the semantic model that several rules share.
#include <string_view>

#include "denpex/python/module.h"

namespace denpex::python::patterns {

inline bool is_checkpoint(const Call& c) {
  return c.qname == "torch.utils.checkpoint.checkpoint" || c.qname == "torch.utils.checkpoint.checkpoint_sequential";
}

inline bool is_compile(const Call& c) { return c.qname == "torch.compile"; }

// The keyword is written in this call, not inherited from a functools.partial.
inline bool own_keyword(const Call& c, const Keyword& k) {
  return ts_node_start_byte(k.node) >= ts_node_start_byte(c.node) && ts_node_end_byte(k.node) <= ts_node_end_byte(c.node);
}

inline bool program_compiles(const Module& m) {
  if (m.has_call("torch.compile")) return true;
  for (const auto& f : m.functions())
    if (f.compiled) return true;
  return false;
}

// mark_dynamic or a raised recompile limit: the author has dealt with shape-driven recompiles.
inline const TSNode* handles_dynamic_shapes(const Module& m) {
  for (const auto& c : m.calls())
    if (c.qname == "torch._dynamo.mark_dynamic" || c.qname == "torch._dynamo.maybe_mark_dynamic" ||
        c.qname == "torch._dynamo.decorators.mark_dynamic")
      return &c.node;
  for (const auto& a : m.assigns()) {
    std::string q = m.qualified_name(a.left);
    if (q == "torch._dynamo.config.cache_size_limit" || q == "torch._dynamo.config.recompile_limit" ||
        q == "torch._dynamo.config.accumulated_cache_size_limit" ||
        q == "torch._dynamo.config.accumulated_recompile_limit")
      return &a.node;
  }
  return nullptr;
}

inline bool in_range(TSNode inner, TSNode outer) {
  return ts_node_start_byte(inner) >= ts_node_start_byte(outer) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

// Inside an `except` handler, or in the `else`/`elif` branch of an `if` whose condition or first
// branch names a version check or the replacement API: code that exists for old PyTorch versions
// (`try: torch.amp.GradScaler(...) except: torch.cuda.amp.GradScaler()`). Rewriting it breaks them.
inline bool version_fallback(const Module& m, TSNode n, std::string_view replacement) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    std::string_view type = ts_node_type(p);
    if (type == "except_clause") return true;
    if (type == "else_clause" || type == "elif_clause") {
      TSNode stmt = ts_node_parent(p);
      if (ts_node_is_null(stmt)) continue;
      // The text of the `if` up to this branch: its condition and the branches before it.
      std::string_view head = m.source().substr(ts_node_start_byte(stmt), ts_node_start_byte(p) - ts_node_start_byte(stmt));
      if (head.find("version") != std::string_view::npos || head.find("hasattr") != std::string_view::npos ||
          head.find("VERSION") != std::string_view::npos ||
          (!replacement.empty() && head.find(replacement) != std::string_view::npos))
        return true;
    }
    if (type == "function_definition" || type == "class_definition") return false;
  }
  return false;
}

// Inside a unit test: a function (or an enclosing one) named `test_*`/`_test_*`, or a method of a
// class named `Test*`. One forward pass there is the point of the test, not a training cost.
inline bool in_test(const Module& m, const Scope& s) {
  for (const Function* f = m.function(s); f; f = f->parent >= 0 ? &m.functions()[static_cast<size_t>(f->parent)] : nullptr) {
    // Not a bare `test(...)`: scripts name their evaluation loop that.
    if (f->name.rfind("test_", 0) == 0 || f->name.rfind("_test_", 0) == 0) return true;
    TSNode p = ts_node_parent(f->node);
    if (!ts_node_is_null(p) && std::string_view(ts_node_type(p)) == "decorated_definition") p = ts_node_parent(p);
    if (!ts_node_is_null(p)) p = ts_node_parent(p);  // block -> class_definition
    if (!ts_node_is_null(p) && std::string_view(ts_node_type(p)) == "class_definition") {
      TSNode name = ts_node_child_by_field_name(p, "name", 4);
      if (!ts_node_is_null(name) && m.text(name).rfind("Test", 0) == 0) return true;
    }
  }
  return false;
}

inline std::string line_note(const Module& m, TSNode n) { return "line " + std::to_string(m.start(n).line + 1); }

}  // namespace denpex::python::patterns
