#pragma once
// Between parse_arena.cpp (the allocator) and parse.cpp (which parses in the arena when a scope is
// open on this thread).
#include <tree_sitter/api.h>

namespace denpex::python::arena {

// Installs the allocator into tree-sitter; called before the process's first tree-sitter object.
void install();
// The open scope's parser on this thread (made on first use inside the scope), or null.
TSParser* scope_parser();
// Whether trees of the open scope must still be deleted node by node (the arena overflowed).
bool spilled();

}  // namespace denpex::python::arena
