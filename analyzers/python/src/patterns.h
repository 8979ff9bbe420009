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

inline std::string line_note(const Module& m, TSNode n) { return "line " + std::to_string(m.start(n).line + 1); }

}  // namespace denpex::python::patterns
