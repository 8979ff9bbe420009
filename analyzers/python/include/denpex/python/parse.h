#pragma once
// tree-sitter parsing of Python source. Trees are immutable snapshots; re-parsing with the old
// tree after an edit (see Tree::edit) reuses unchanged subtrees.
#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>

namespace denpex::python {

const TSLanguage* language();
uint32_t grammar_abi_version();

class Tree {
 public:
  Tree() = default;
  explicit Tree(TSTree* tree) : tree_(tree, &ts_tree_delete) {}
  Tree(TSTree* tree, void (*deleter)(TSTree*)) : tree_(tree, deleter) {}
  TSNode root() const { return ts_tree_root_node(tree_.get()); }
  TSTree* get() const { return tree_.get(); }
  bool has_error() const { return tree_ && ts_node_has_error(root()); }
  explicit operator bool() const { return tree_ != nullptr; }
  // Records an edit so the next parse(text, &tree) can reuse unchanged parts.
  void edit(const TSInputEdit& e) { ts_tree_edit(tree_.get(), &e); }

 private:
  std::shared_ptr<TSTree> tree_;
};

// Parses `source`. With `old`, parses incrementally against the edited previous tree.
// Never fails on broken input: tree-sitter recovers with ERROR/MISSING nodes. Inside a ParseArena
// scope the tree lives in the arena (and `old` is not reused).
Tree parse(std::string_view source, const Tree* old = nullptr);

}  // namespace denpex::python
