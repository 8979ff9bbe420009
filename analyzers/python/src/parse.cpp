#include "denpex/python/parse.h"

#include <stdexcept>

#include "parse_arena_state.h"

extern "C" const TSLanguage* tree_sitter_python();

namespace denpex::python {

const TSLanguage* language() { return tree_sitter_python(); }

uint32_t grammar_abi_version() { return ts_language_abi_version(language()); }

Tree parse(std::string_view source, const Tree* old) {
  arena::install();  // before this process's first tree-sitter object
  if (TSParser* p = arena::scope_parser()) {
    // A tree from outside the arena scope is not reused: its edited nodes would live in the arena.
    TSTree* tree = ts_parser_parse_string(p, nullptr, source.data(), static_cast<uint32_t>(source.size()));
    return Tree(tree, [](TSTree* t) {
      if (arena::spilled()) ts_tree_delete(t);  // some of its nodes are malloc'd: free those
    });
  }
  // A parser is cheap to keep per thread and not thread-safe to share.
  thread_local std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), &ts_parser_delete);
  thread_local bool ready = ts_parser_set_language(parser.get(), language());
  if (!ready)
    throw std::runtime_error("tree-sitter runtime cannot load the Python grammar (ABI " +
                             std::to_string(grammar_abi_version()) + ")");
  TSTree* tree = ts_parser_parse_string(parser.get(), old ? old->get() : nullptr, source.data(),
                                        static_cast<uint32_t>(source.size()));
  return Tree(tree);
}

}  // namespace denpex::python
