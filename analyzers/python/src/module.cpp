#include "denpex/python/module.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace denpex::python {
namespace {

// Symbol ids differ between grammar versions, names do not: map names once per process.
const std::vector<Kind>& kind_table() {
  static const std::vector<Kind> table = [] {
    static const std::unordered_map<std::string_view, Kind> names = {
        {"call", Kind::Call}, {"attribute", Kind::Attribute}, {"identifier", Kind::Identifier},
        {"argument_list", Kind::ArgumentList}, {"keyword_argument", Kind::KeywordArgument},
        {"dictionary_splat", Kind::DictionarySplat}, {"list_splat", Kind::ListSplat},
        {"dictionary", Kind::Dictionary}, {"pair", Kind::Pair}, {"string", Kind::String},
        {"concatenated_string", Kind::String}, {"true", Kind::True}, {"false", Kind::False},
        {"none", Kind::None}, {"integer", Kind::Integer}, {"float", Kind::Float},
        {"comment", Kind::Comment}, {"import_statement", Kind::ImportStatement},
        {"import_from_statement", Kind::ImportFromStatement}, {"aliased_import", Kind::AliasedImport},
        {"dotted_name", Kind::DottedName}, {"function_definition", Kind::FunctionDefinition},
        {"class_definition", Kind::ClassDefinition}, {"decorated_definition", Kind::DecoratedDefinition},
        {"decorator", Kind::Decorator}, {"for_statement", Kind::ForStatement},
        {"while_statement", Kind::WhileStatement}, {"with_statement", Kind::WithStatement},
        {"with_clause", Kind::WithClause}, {"with_item", Kind::WithItem}, {"block", Kind::Block},
        {"assignment", Kind::Assignment}, {"augmented_assignment", Kind::AugmentedAssignment},
        {"expression_statement", Kind::ExpressionStatement}, {"parameters", Kind::Parameters},
        {"lambda", Kind::Lambda}, {"generator_expression", Kind::GeneratorExpression},
        {"ERROR", Kind::Error}, {"subscript", Kind::Subscript}, {"binary_operator", Kind::BinaryOperator},
        {"parenthesized_expression", Kind::ParenthesizedExpression},
    };
    const TSLanguage* lang = language();
    uint32_t count = ts_language_symbol_count(lang);
    std::vector<Kind> t(count + 1, Kind::Other);
    for (uint32_t i = 0; i < count; ++i) {
      auto sym = static_cast<TSSymbol>(i);
      if (ts_language_symbol_type(lang, sym) != TSSymbolTypeRegular && std::strcmp(ts_language_symbol_name(lang, sym), "ERROR") != 0)
        continue;
      auto it = names.find(ts_language_symbol_name(lang, sym));
      if (it != names.end()) t[i] = it->second;
    }
    return t;
  }();
  return table;
}

// Field ids, looked up once: ts_node_child_by_field_name compares the name against every field
// of the grammar on each call, which showed up in profiles of the walk.
struct FieldIds {
  TSFieldId function, arguments, object, attribute, name, alias, module_name, value, key, left, right, op, body;
};

TSFieldId field_id(const char* name) {
  return ts_language_field_id_for_name(language(), name, static_cast<uint32_t>(std::strlen(name)));
}

const FieldIds& fid() {
  static const FieldIds ids{field_id("function"), field_id("arguments"), field_id("object"), field_id("attribute"),
                            field_id("name"),     field_id("alias"),     field_id("module_name"), field_id("value"),
                            field_id("key"),      field_id("left"),      field_id("right"),  field_id("operator"),
                            field_id("body")};
  return ids;
}

inline TSNode child(TSNode n, TSFieldId id) {
  if (n.id == nullptr || id == 0) return TSNode{};
  return ts_node_child_by_field_id(n, id);
}

bool is_torch_root(std::string_view q) {
  for (std::string_view root : {"torch", "lightning", "pytorch_lightning"})
    if (q == root || (q.size() > root.size() && q.substr(0, root.size()) == root && q[root.size()] == '.')) return true;
  return false;
}

bool step_name(std::string_view n) {
  auto ends = [&](std::string_view s) { return n.size() >= s.size() && n.substr(n.size() - s.size()) == s; };
  auto starts = [&](std::string_view s) { return n.substr(0, s.size()) == s; };
  return n == "step" || ends("_step") || starts("train_step") || starts("training_step") ||
         starts("train_batch") || starts("train_one_batch") || starts("train_on_batch");
}

}  // namespace

Kind kind_of(TSNode n) {
  if (n.id == nullptr) return Kind::Other;
  TSSymbol s = ts_node_symbol(n);
  if (s == static_cast<TSSymbol>(-1)) return Kind::Error;  // ts_builtin_sym_error, as ts_node_is_error
  const auto& t = kind_table();
  return s < t.size() ? t[s] : Kind::Other;
}

TSNode field(TSNode n, std::string_view name) {
  if (ts_node_is_null(n)) return n;
  // Every field name of the grammar, mapped to its id once.
  static const std::unordered_map<std::string_view, TSFieldId> ids = [] {
    std::unordered_map<std::string_view, TSFieldId> m;
    const TSLanguage* lang = language();
    for (uint32_t i = 1; i <= ts_language_field_count(lang); ++i) {
      const char* fname = ts_language_field_name_for_id(lang, static_cast<TSFieldId>(i));
      if (fname) m.emplace(fname, static_cast<TSFieldId>(i));
    }
    return m;
  }();
  auto it = ids.find(name);
  if (it == ids.end()) return TSNode{};
  return ts_node_child_by_field_id(n, it->second);
}

const Keyword* Call::keyword(std::string_view name) const {
  for (const auto& k : keywords)
    if (k.name == name) return &k;
  return nullptr;
}

Module::Module(std::string_view source) : source_(source), tree_(parse(source)), lines_(source) { build(); }

Module::Module(std::string_view source, Tree tree) : source_(source), tree_(std::move(tree)), lines_(source) {
  build();
}

void Module::build() {
  if (!tree_) return;
  walk();
  resolve_calls();
  mark_steps();
  mark_no_grad_callees();
}

std::string_view Module::text(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > source_.size() || e > source_.size() || e < b) return {};
  return source_.substr(b, e - b);
}

// From byte offsets through the module's LineIndex, not tree-sitter's points: tree-sitter counts
// only LF as a line end, the LineIndex (which maps fixes back to offsets, and positions to editors)
// also a lone CR. With a lone CR in the file the two disagree, and a fix landed elsewhere (found by
// fuzz_python_fix).
core::Position Module::start(TSNode n) const { return lines().position(ts_node_start_byte(n)); }
core::Position Module::end(TSNode n) const { return lines().position(ts_node_end_byte(n)); }
core::Range Module::range(TSNode n) const { return {start(n), end(n)}; }

void Module::add_binding(std::string_view local, std::string qualified) {
  if (is_torch_root(qualified)) imports_torch_ = true;
  imports_[std::string(local)] = std::move(qualified);
}

void Module::read_import(TSNode n) {
  Kind k = kind_of(n);
  std::string from;
  if (k == Kind::ImportFromStatement) {
    TSNode mod = child(n, fid().module_name);
    // Relative imports name the user's own package: nothing of torch's.
    if (kind_of(mod) != Kind::DottedName) return;
    from = std::string(text(mod));
  }
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    const char* f = ts_node_field_name_for_child(n, i);
    if (!f || std::strcmp(f, "name") != 0) continue;
    TSNode c = ts_node_child(n, i);
    std::string prefix = from.empty() ? "" : from + ".";
    if (kind_of(c) == Kind::AliasedImport) {
      TSNode name = child(c, fid().name), alias = child(c, fid().alias);
      if (!is_null(name) && !is_null(alias)) add_binding(text(alias), prefix + std::string(text(name)));
    } else if (kind_of(c) == Kind::DottedName) {
      std::string_view dotted = text(c);
      if (from.empty()) {
        // `import a.b.c` binds `a`; the attribute chain spells the rest.
        std::string_view root = dotted.substr(0, dotted.find('.'));
        add_binding(root, std::string(root));
        if (is_torch_root(dotted)) imports_torch_ = true;
      } else {
        add_binding(dotted, prefix + std::string(dotted));
      }
    }
  }
}

// Most call targets (`self.fc(x)`, `model(x)`) resolve to nothing: find that out before building
// any string, and build a resolved name in one buffer rather than by concatenating per level.
bool Module::append_qualified(TSNode expr, std::string& out, size_t hint) const {
  switch (kind_of(expr)) {
    case Kind::Identifier: {
      std::string_view name = text(expr);
      auto it = imports_.find(name);
      if (it == imports_.end() || it->second.empty() || locally_defined(name)) return false;
      out.reserve(it->second.size() + hint);
      out += it->second;
      return true;
    }
    case Kind::Attribute: {
      if (!append_qualified(child(expr, fid().object), out, hint)) return false;
      out += '.';
      out += text(child(expr, fid().attribute));
      return true;
    }
    default:
      return false;
  }
}

std::string Module::qualified_name(TSNode expr) const {
  std::string out;
  if (!append_qualified(expr, out, text(expr).size())) out.clear();
  return out;
}

std::string_view Module::local_name_of(std::string_view qualified) const {
  for (const auto& [local, q] : imports_)
    if (q == qualified && !locally_defined(local)) return local;
  return {};
}

std::optional<std::string_view> Module::string_value(TSNode n) const {
  if (kind_of(n) != Kind::String || ts_node_type(n) != std::string_view("string")) return std::nullopt;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
    if (std::string_view(ts_node_type(ts_node_named_child(n, i))) == "interpolation") return std::nullopt;
  std::string_view t = text(n);
  size_t q = t.find_first_of("'\"");
  if (q == std::string_view::npos) return std::nullopt;
  for (char c : t.substr(0, q))
    if (c == 'f' || c == 'F' || c == 'b' || c == 'B') return std::nullopt;
  t = t.substr(q);
  size_t quote = (t.size() >= 6 && (t.substr(0, 3) == "'''" || t.substr(0, 3) == "\"\"\"")) ? 3 : 1;
  if (t.size() < 2 * quote) return std::nullopt;
  return t.substr(quote, t.size() - 2 * quote);
}

Literal Module::literal(TSNode v) const {
  switch (kind_of(v)) {
    case Kind::True: return Literal::True;
    case Kind::False: return Literal::False;
    case Kind::None: return Literal::None;
    case Kind::Integer:
    case Kind::Float: return Literal::Number;
    case Kind::String: return string_value(v) ? Literal::String : Literal::Unknown;
    case Kind::ParenthesizedExpression: return literal(ts_node_named_child(v, 0));
    case Kind::Identifier: {
      // A module-level constant (`USE_REENTRANT = True`, ALL_CAPS by convention) assigned exactly
      // once, at module level outside any loop, to a literal: its value. Any other binding of the
      // name anywhere in the file, or a lower-case name (a parameter could shadow it), is unknown.
      std::string_view name = text(v);
      if (name.empty() || name.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string_view::npos) return Literal::Unknown;
      const Assign* only = nullptr;
      for (const auto& a : assigns_) {
        if (text(a.left) != name) continue;
        if (only || a.augmented || a.scope.function >= 0 || a.scope.in_loop) return Literal::Unknown;
        only = &a;
      }
      if (!only || kind_of(only->right) == Kind::Identifier) return Literal::Unknown;
      return literal(only->right);
    }
    default: return Literal::Unknown;
  }
}

// `**{...}` in a call: a literal dict's string keys are keywords; anything else is undecidable.
void Module::read_dict_splat(Call& c, TSNode a) const {
  const FieldIds& F = fid();
  TSNode d = ts_node_named_child(a, 0);
  if (kind_of(d) != Kind::Dictionary) {
    c.unknown_kwargs = true;
    return;
  }
  for (uint32_t j = 0; j < ts_node_named_child_count(d); ++j) {
    TSNode p = ts_node_named_child(d, j);
    if (kind_of(p) == Kind::Comment) continue;
    auto key = kind_of(p) == Kind::Pair ? string_value(child(p, F.key)) : std::nullopt;
    if (!key) {
      c.unknown_kwargs = true;
      continue;
    }
    c.keywords.push_back({*key, p, child(p, F.value), true});
  }
}

void Module::walk() {
  // One frame per node on the path from the root; kept small (the walk pushes one per node, and
  // copying a frame with a Scope in it showed in profiles): the scope is an index into `scopes`,
  // which gains an entry only where a block changes it.
  struct Frame {
    TSNode node{};
    int scope = 0;         // index into scopes
    int function = -1;     // for a function_definition frame: its index
    // A call's parts are read as the walk passes them, not by re-reading each call's subtree
    // (ts_node_child_by_field_id and sibling steps cost hundreds of instructions each).
    int call = -1;         // a call frame: its index in calls_
    int call_args = -1;    // the argument_list of calls_[call_args]
    int call_callee = -1;  // the attribute that is the callee of calls_[call_callee]
    int keyword = -1;      // a keyword_argument of calls_[call_args]: its index in keywords
    Kind kind = Kind::Other;
    bool no_grad_with = false;
    bool leaf = false;     // no children: the cursor need not try to descend (it costs a call)
    bool seen_a = false, seen_b = false;  // first child with each field wins, as ts_node_child_by_field_id
  };
  std::vector<Frame> stack;
  stack.reserve(64);
  std::vector<Scope> scopes(1);  // 0: module level
  auto new_scope = [&](const Scope& s) {
    scopes.push_back(s);
    return static_cast<int>(scopes.size() - 1);
  };
  TSTreeCursor cur = ts_tree_cursor_new(tree_.root());

  const FieldIds& F = fid();
  auto grad_off = [&](TSNode call) {
    if (kind_of(call) != Kind::Call) return false;
    std::string q = qualified_name(child(call, F.function));
    if (q == "torch.no_grad" || q == "torch.inference_mode" || q == "torch.autograd.no_grad") return true;
    if (q == "torch.set_grad_enabled" || q == "torch.autograd.set_grad_enabled") {
      TSNode args = child(call, F.arguments);
      return kind_of(ts_node_named_child(args, 0)) == Kind::False;
    }
    return false;
  };

  auto enter = [&](TSNode n) {
    Kind k = kind_of(n);
    int inherited = stack.empty() ? 0 : stack.back().scope;
    stack.emplace_back();  // nothing below pushes: `f` and `parent` stay valid
    Frame& f = stack.back();
    f.node = n;
    f.kind = k;
    f.scope = inherited;
    Frame* parent = stack.size() > 1 ? &stack[stack.size() - 2] : nullptr;
    if (parent && parent->call >= 0) {
      Call& c = calls_[static_cast<size_t>(parent->call)];
      TSFieldId field = ts_tree_cursor_current_field_id(&cur);
      if (field == F.function && F.function && !parent->seen_a) {
        parent->seen_a = true;
        c.function = n;
        if (k == Kind::Attribute) f.call_callee = parent->call;
      } else if (field == F.arguments && F.arguments && !parent->seen_b) {
        parent->seen_b = true;
        if (k == Kind::GeneratorExpression) {
          c.positionals.push_back(n);
        } else {
          c.arguments = n;
          if (k == Kind::ArgumentList) f.call_args = parent->call;
        }
      }
    } else if (parent && parent->call_callee >= 0) {
      Call& c = calls_[static_cast<size_t>(parent->call_callee)];
      TSFieldId field = ts_tree_cursor_current_field_id(&cur);
      if (field == F.attribute && F.attribute && !parent->seen_a) {
        parent->seen_a = true;
        c.method = text(n);
      } else if (field == F.object && F.object && !parent->seen_b) {
        parent->seen_b = true;
        c.receiver = n;
      }
    } else if (parent && parent->call_args >= 0 && parent->keyword < 0 && ts_node_is_named(n)) {
      Call& c = calls_[static_cast<size_t>(parent->call_args)];
      switch (k) {
        case Kind::Comment: break;
        case Kind::KeywordArgument:
          f.call_args = parent->call_args;
          f.keyword = static_cast<int>(c.keywords.size());
          c.keywords.push_back({std::string_view{}, n, TSNode{}, false});
          break;
        case Kind::DictionarySplat: read_dict_splat(c, n); break;
        case Kind::ListSplat: c.unknown_positional = true; break;
        default: c.positionals.push_back(n); break;
      }
    } else if (parent && parent->keyword >= 0) {
      Keyword& kw = calls_[static_cast<size_t>(parent->call_args)].keywords[static_cast<size_t>(parent->keyword)];
      TSFieldId field = ts_tree_cursor_current_field_id(&cur);
      if (field == F.name && F.name && !parent->seen_a) {
        parent->seen_a = true;
        kw.name = text(n);
      } else if (field == F.value && F.value && !parent->seen_b) {
        parent->seen_b = true;
        kw.value = n;
      }
    }
    switch (k) {
      case Kind::Block: {
        bool body = F.body != 0 && ts_tree_cursor_current_field_id(&cur) == F.body;
        if (parent && body) {
          if (parent->kind == Kind::ForStatement || parent->kind == Kind::WhileStatement) {
            Scope s = scopes[static_cast<size_t>(f.scope)];
            s.in_loop = true;
            s.loop = parent->node;
            f.scope = new_scope(s);
          } else if (parent->kind == Kind::FunctionDefinition && parent->function >= 0) {
            f.scope = new_scope(Scope{parent->function, false, functions_[static_cast<size_t>(parent->function)].no_grad, TSNode{}});
          } else if (parent->kind == Kind::WithStatement && parent->no_grad_with) {
            Scope s = scopes[static_cast<size_t>(f.scope)];
            s.no_grad = true;
            f.scope = new_scope(s);
          }
        }
        break;
      }
      case Kind::WithStatement: {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
          TSNode clause = ts_node_named_child(n, i);
          if (kind_of(clause) != Kind::WithClause) continue;
          for (uint32_t j = 0; j < ts_node_named_child_count(clause); ++j)
            if (grad_off(child(ts_node_named_child(clause, j), F.value))) f.no_grad_with = true;
        }
        break;
      }
      case Kind::FunctionDefinition: {
        Function fn;
        fn.node = n;
        fn.name = text(child(n, F.name));
        fn.scope = scopes[static_cast<size_t>(f.scope)];
        fn.parent = fn.scope.function;
        local_defs_[fn.name]++;
        if (parent && parent->kind == Kind::DecoratedDefinition) {
          for (uint32_t i = 0; i < ts_node_named_child_count(parent->node); ++i) {
            TSNode d = ts_node_named_child(parent->node, i);
            if (kind_of(d) != Kind::Decorator) continue;
            TSNode e = ts_node_named_child(d, 0);
            fn.decorators.push_back(e);
            TSNode callee = kind_of(e) == Kind::Call ? child(e, F.function) : e;
            std::string q = qualified_name(callee);
            if (q == "torch.no_grad" || q == "torch.inference_mode") fn.no_grad = true;
            if (q == "torch.compile") fn.compiled = true;
          }
        }
        f.function = static_cast<int>(functions_.size());
        functions_.push_back(std::move(fn));
        break;
      }
      case Kind::ClassDefinition: local_defs_[text(child(n, F.name))]++; break;
      case Kind::Call: {
        Call c;
        c.node = n;
        c.scope = scopes[static_cast<size_t>(f.scope)];
        c.statement = parent && parent->kind == Kind::ExpressionStatement && ts_node_named_child_count(parent->node) == 1;
        c.is_decorator = parent && parent->kind == Kind::Decorator;
        f.call = static_cast<int>(calls_.size());
        calls_.push_back(std::move(c));
        break;
      }
      case Kind::Assignment:
      case Kind::AugmentedAssignment: {
        Assign a{n, child(n, F.left), child(n, F.right), k == Kind::AugmentedAssignment, "=", scopes[static_cast<size_t>(f.scope)]};
        if (a.augmented) a.op = text(child(n, F.op));
        if (kind_of(a.left) == Kind::Identifier && !a.augmented) local_defs_[text(a.left)]++;
        assigns_.push_back(a);
        break;
      }
      case Kind::ImportStatement:
      case Kind::ImportFromStatement: read_import(n); break;
      case Kind::Comment: comments_.push_back(n); break;
      default: break;
    }
    // Strings and comments hold no code to check: never descend into them. Names and literals
    // are leaves; anything else may have children.
    switch (k) {
      case Kind::String:
      case Kind::Comment:
      case Kind::Identifier:
      case Kind::Integer:
      case Kind::Float:
      case Kind::True:
      case Kind::False:
      case Kind::None: f.leaf = true; break;
      default: f.leaf = ts_node_child_count(n) == 0; break;
    }
  };

  enter(ts_tree_cursor_current_node(&cur));
  while (true) {
    if (!stack.back().leaf && ts_tree_cursor_goto_first_child(&cur)) {
      enter(ts_tree_cursor_current_node(&cur));
      continue;
    }
    bool done = false;
    while (true) {
      stack.pop_back();
      if (ts_tree_cursor_goto_next_sibling(&cur)) {
        enter(ts_tree_cursor_current_node(&cur));
        break;
      }
      if (!ts_tree_cursor_goto_parent(&cur)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cur);
}

void Module::resolve_calls() {
  bool any_partial = false;
  for (auto& c : calls_) {
    c.positional = static_cast<int>(c.positionals.size());
    c.qname = qualified_name(c.function);
    any_partial = any_partial || c.qname == "functools.partial";
  }
  // functools.partial(target, ...) bound to a name makes later `name(...)` calls of target.
  for (const auto& a : assigns_) {
    if (!any_partial) break;
    if (a.augmented || kind_of(a.left) != Kind::Identifier || kind_of(a.right) != Kind::Call) continue;
    for (size_t i = 0; i < calls_.size(); ++i) {
      Call& c = calls_[i];
      if (!ts_node_eq(c.node, a.right) || c.qname != "functools.partial" || c.positionals.empty()) continue;
      std::string target = qualified_name(c.positionals.front());
      if (target.empty()) break;
      c.is_partial = true;
      c.qname = target;
      c.positionals.erase(c.positionals.begin());
      c.positional--;
      partials_[std::string(text(a.left))] = {target, i};
      break;
    }
  }
  for (auto& c : calls_) {
    if (c.qname == "functools.partial" && !c.positionals.empty()) {
      // An unassigned partial (passed along directly) still configures its target.
      std::string target = qualified_name(c.positionals.front());
      if (!target.empty()) {
        c.is_partial = true;
        c.qname = target;
        c.positionals.erase(c.positionals.begin());
        c.positional--;
      }
    }
  }
  if (!partials_.empty()) {
    for (auto& c : calls_) {
      if (kind_of(c.function) != Kind::Identifier || !c.qname.empty()) continue;
      auto it = partials_.find(text(c.function));
      if (it == partials_.end()) continue;
      auto defs = local_defs_.find(std::string_view(it->first));
      if (defs == local_defs_.end() || defs->second != 1) continue;
      const Call& p = calls_[it->second.call];
      c.qname = it->second.target;
      c.via_partial = true;
      std::vector<Keyword> merged = p.keywords;
      merged.insert(merged.end(), c.keywords.begin(), c.keywords.end());
      c.keywords = std::move(merged);
      c.unknown_kwargs = c.unknown_kwargs || p.unknown_kwargs;
    }
  }
  for (const auto& c : calls_) {
    if (c.qname == "torch.compile" && !c.positionals.empty() && kind_of(c.positionals.front()) == Kind::Identifier)
      compiled_names_.push_back(text(c.positionals.front()));
  }
  for (const auto& c : calls_) {
    if (varying_shapes_) break;
    static const char* const kPadders[] = {
        "torch.nn.utils.rnn.pad_sequence", "torch.nn.utils.rnn.pack_padded_sequence",
        "torch.nn.utils.rnn.pack_sequence", "transformers.DataCollatorWithPadding",
        "transformers.DataCollatorForSeq2Seq", "transformers.DataCollatorForLanguageModeling",
        "transformers.DataCollatorForTokenClassification"};
    for (const char* p : kPadders)
      if (c.qname == p) varying_shapes_ = &c;
    if (const Keyword* k = c.keyword("padding")) {
      auto v = kind_of(k->value) == Kind::String ? string_value(k->value) : std::nullopt;
      if (literal(k->value) == Literal::True || (v && *v == "longest")) varying_shapes_ = &c;
    }
    // `max(len(s) for s in batch)`: padding to the batch maximum by hand.
    if (text(c.function) == "max" && !locally_defined("max") && !c.positionals.empty() &&
        text(c.positionals.front()).find("len(") != std::string_view::npos)
      varying_shapes_ = &c;
  }
}

void Module::mark_steps() {
  for (auto& f : functions_) {
    if (step_name(f.name)) f.per_step = true;
    for (auto n : compiled_names_)
      if (n == f.name) f.compiled = true;
  }
  // A function called from a loop (or from another per-step function) runs once per step.
  for (int round = 0; round < 3; ++round) {
    bool changed = false;
    for (const auto& c : calls_) {
      if (!per_step(c.scope)) continue;
      std::string_view name;
      if (kind_of(c.function) == Kind::Identifier) name = text(c.function);
      else if (kind_of(c.receiver) == Kind::Identifier && text(c.receiver) == "self") name = c.method;
      if (name.empty()) continue;
      for (auto& f : functions_) {
        if (f.name == name && !f.per_step) {
          f.per_step = f.called_in_loop = true;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
}

// `def run_eval(...)` called only inside `with torch.no_grad():` runs with grad off. Judged from
// this file's calls alone: a function called from nowhere here, or called anywhere here with grad
// on, keeps grad mode unknown (on). Same-named functions share a verdict: any call with grad on
// keeps them all on.
void Module::mark_no_grad_callees() {
  auto callee = [&](const Call& c) -> std::string_view {
    if (kind_of(c.function) == Kind::Identifier) return text(c.function);
    if (kind_of(c.receiver) == Kind::Identifier && text(c.receiver) == "self") return c.method;
    return {};
  };
  if (functions_.empty()) return;
  std::unordered_map<std::string_view, std::pair<size_t, size_t>> seen;  // name -> calls, calls with grad off
  for (int round = 0; round < 3; ++round) {
    seen.clear();
    for (const auto& c : calls_) {
      std::string_view name = callee(c);
      if (name.empty()) continue;
      auto& [calls, off] = seen[name];
      ++calls;
      off += in_no_grad(c.scope);
    }
    bool changed = false;
    for (auto& f : functions_) {
      if (f.no_grad) continue;
      auto it = seen.find(f.name);
      if (it != seen.end() && it->second.first == it->second.second) f.no_grad = changed = true;
    }
    if (!changed) break;
  }
}

bool Module::per_step(const Scope& s) const {
  if (s.in_loop) return true;
  for (int f = s.function; f >= 0; f = functions_[static_cast<size_t>(f)].parent)
    if (functions_[static_cast<size_t>(f)].per_step) return true;
  return false;
}

bool Module::in_compiled(const Scope& s) const {
  for (int f = s.function; f >= 0; f = functions_[static_cast<size_t>(f)].parent)
    if (functions_[static_cast<size_t>(f)].compiled) return true;
  return false;
}

bool Module::in_no_grad(const Scope& s) const {
  if (s.no_grad) return true;
  for (int f = s.function; f >= 0; f = functions_[static_cast<size_t>(f)].parent)
    if (functions_[static_cast<size_t>(f)].no_grad) return true;
  return false;
}

std::vector<const Call*> Module::calls_to(std::initializer_list<std::string_view> qnames) const {
  std::vector<const Call*> out;
  for (const auto& c : calls_)
    for (auto q : qnames)
      if (c.qname == q) {
        out.push_back(&c);
        break;
      }
  return out;
}

bool Module::has_call(std::string_view qname) const {
  for (const auto& c : calls_)
    if (c.qname == qname) return true;
  return false;
}

}  // namespace denpex::python
