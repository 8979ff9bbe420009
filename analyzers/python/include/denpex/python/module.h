#pragma once
// The semantic layer over one parsed Python file: what names are bound to (imports, aliases,
// functools.partial), what each call targets and which keywords it passes (including literal
// `**{...}`), and where it runs (inside a loop, a per-step function, a no_grad region, a compiled
// function). Built once per file by a single tree walk; rules only read it.
//
// Everything here answers "don't know" rather than guess: an unresolvable call target has an empty
// qualified name, a `**kwargs` from a variable sets `unknown_kwargs`, and a name that is both
// imported and defined locally resolves to nothing. Rules stay silent on "don't know".
#include <tree_sitter/api.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "denpex/core/finding.h"
#include "denpex/core/text.h"
#include "denpex/python/parse.h"

namespace denpex::python {

// Node kinds the analyzer cares about; everything else is Other.
enum class Kind : uint8_t {
  Other, Call, Attribute, Identifier, ArgumentList, KeywordArgument, DictionarySplat, ListSplat,
  Dictionary, Pair, String, True, False, None, Integer, Float, Comment, ImportStatement,
  ImportFromStatement, AliasedImport, DottedName, FunctionDefinition, ClassDefinition,
  DecoratedDefinition, Decorator, ForStatement, WhileStatement, WithStatement, WithClause, WithItem,
  Block, Assignment, AugmentedAssignment, ExpressionStatement, Parameters, Lambda, GeneratorExpression,
  Error, Subscript, BinaryOperator, ParenthesizedExpression,
};

Kind kind_of(TSNode n);

// Where a node sits. `function` indexes Module::functions() (-1: module level).
struct Scope {
  int function = -1;
  bool in_loop = false;   // inside a for/while body (not its header) of the same function
  bool no_grad = false;   // inside `with torch.no_grad()`/`inference_mode()`/`set_grad_enabled(False)`
  TSNode loop{};          // the innermost enclosing for/while statement, when in_loop
};

struct Function {
  TSNode node{};            // function_definition
  std::string_view name;
  int parent = -1;          // enclosing function, -1 at module or class level
  Scope scope;              // where the `def` itself runs (its decorators are evaluated there)
  bool no_grad = false;     // decorated with @torch.no_grad / @torch.inference_mode, or every call
                            // of it in this file is in such a region
  bool compiled = false;    // decorated with @torch.compile or passed to torch.compile(name)
  bool per_step = false;    // named like a step function, or called from a loop
  bool called_in_loop = false;
  std::vector<TSNode> decorators;  // the decorator expressions
};

enum class Literal { Unknown, True, False, None, Number, String };

struct Keyword {
  std::string_view name;
  TSNode node{};   // keyword_argument, or the dictionary pair of a literal `**{...}`
  TSNode value{};
  bool from_splat = false;  // came from a literal `**{...}`: edits must respect the dict syntax
};

struct Call {
  TSNode node{};
  TSNode function{};      // the callee expression
  TSNode arguments{};     // argument_list; null for `f(x for x in y)`
  std::string qname;      // resolved target, e.g. "torch.utils.checkpoint.checkpoint"; empty if unknown
  std::string_view method;  // attribute name when the callee is `obj.name`
  TSNode receiver{};      // `obj` in `obj.name(...)`
  std::vector<Keyword> keywords;
  std::vector<TSNode> positionals;
  int positional = 0;
  bool unknown_kwargs = false;      // a `**expr` that is not a literal dict
  bool unknown_positional = false;  // a `*expr`
  bool via_partial = false;   // called through `name = functools.partial(target, ...)`
  bool is_partial = false;    // the `functools.partial(target, ...)` call itself; qname is target's
  bool is_decorator = false;  // the expression of a decorator
  bool statement = false;     // the whole of an expression statement: its value is discarded
  Scope scope;

  const Keyword* keyword(std::string_view name) const;
};

struct Assign {
  TSNode node{};  // assignment or augmented_assignment
  TSNode left{}, right{};
  bool augmented = false;
  std::string_view op;  // "+=" for augmented, "=" otherwise
  Scope scope;
};

class Module {
 public:
  // Parses and analyses `source`, which must outlive the Module.
  explicit Module(std::string_view source);
  // Analyses an already parsed (possibly incrementally re-parsed) tree of `source`.
  Module(std::string_view source, Tree tree);
  // Calls point into each other (varying_shapes, partials): a Module stays where it was built.
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  std::string_view source() const { return source_; }
  const Tree& tree() const { return tree_; }
  const core::LineIndex& lines() const { return lines_; }

  std::string_view text(TSNode n) const;
  core::Range range(TSNode n) const;
  core::Position start(TSNode n) const;
  core::Position end(TSNode n) const;

  // The qualified name an expression refers to ("torch.cuda.amp.autocast"), or "" when it is not
  // an imported name or an attribute chain on one.
  std::string qualified_name(TSNode expr) const;
  // The local name under which a module is imported (`import torch as t` -> "t"), or "".
  std::string_view local_name_of(std::string_view qualified) const;
  bool imports_torch() const { return imports_torch_; }
  Literal literal(TSNode value) const;

  const std::vector<Call>& calls() const { return calls_; }
  const std::vector<Assign>& assigns() const { return assigns_; }
  const std::vector<Function>& functions() const { return functions_; }
  const std::vector<TSNode>& comments() const { return comments_; }

  // In a loop, or in a function that runs once per step (directly or via an enclosing one).
  bool per_step(const Scope& s) const;
  // Inside a function compiled with torch.compile (directly or in a nested def).
  bool in_compiled(const Scope& s) const;
  // Inside a no_grad/inference_mode region, a function decorated with one, or a function that this
  // file calls only from such regions (every rule sees grad mode the same way through this).
  bool in_no_grad(const Scope& s) const;
  const Function* function(const Scope& s) const {
    return s.function < 0 ? nullptr : &functions_[static_cast<size_t>(s.function)];
  }

  // Calls to any of the given qualified names.
  std::vector<const Call*> calls_to(std::initializer_list<std::string_view> qnames) const;
  // Files whose input shapes vary between steps (padding to the batch max, variable sequence
  // length): the first call that shows it, or null.
  const Call* varying_shapes() const { return varying_shapes_; }
  bool has_call(std::string_view qname) const;

 private:
  void build();
  void walk();
  void resolve_calls();
  void mark_steps();
  void mark_no_grad_callees();
  void read_dict_splat(Call& c, TSNode splat) const;
  void read_import(TSNode n);
  void add_binding(std::string_view local, std::string qualified);
  // Appends the qualified name of `expr` to `out`; false (nothing appended) when unresolvable.
  bool append_qualified(TSNode expr, std::string& out, size_t hint) const;
  bool locally_defined(std::string_view name) const { return local_defs_.find(name) != local_defs_.end(); }
  std::optional<std::string_view> string_value(TSNode n) const;

  std::string_view source_;
  Tree tree_;
  core::LineIndex lines_;
  std::map<std::string, std::string, std::less<>> imports_;  // local name -> qualified
  // Names bound by def/class/assignment; the keys point into source_.
  std::unordered_map<std::string_view, int> local_defs_;
  struct Partial { std::string target; size_t call; };
  std::map<std::string, Partial, std::less<>> partials_;
  std::vector<Call> calls_;
  std::vector<Assign> assigns_;
  std::vector<Function> functions_;
  std::vector<TSNode> comments_;
  std::vector<std::string_view> compiled_names_;  // torch.compile(name) arguments
  const Call* varying_shapes_ = nullptr;
  bool imports_torch_ = false;
};

// Whether a node is null; tree-sitter's own spelling is easy to misread.
inline bool is_null(TSNode n) { return ts_node_is_null(n); }
TSNode field(TSNode n, std::string_view name);

}  // namespace denpex::python
